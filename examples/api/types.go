package v1

// TypeMeta describes an object's kind and API version (like metav1.TypeMeta).
type TypeMeta struct {
	// Kind is the type of the object, in CamelCase.
	Kind string `json:"kind,omitempty"`
	// APIVersion is the group/version of the object's schema.
	APIVersion string `json:"apiVersion,omitempty"`
}

// ObjectMeta is the metadata every stored object carries (a subset of metav1.ObjectMeta).
type ObjectMeta struct {
	// Name is unique within a namespace and appears in URLs and DNS names.
	// +k8s:required
	// +k8s:format=k8s-long-name
	Name string `json:"name"`

	// Namespace the object lives in.
	// +k8s:optional
	// +k8s:format=k8s-short-name
	Namespace string `json:"namespace,omitempty"`

	// Labels organise and select objects.
	// +k8s:optional
	// +k8s:maxProperties=16
	// +k8s:eachKey=+k8s:format=k8s-label-key
	// +k8s:eachVal=+k8s:format=k8s-label-value
	Labels map[string]string `json:"labels,omitempty"`

	// UID is assigned by the server when the object is created and never changes.
	// +k8s:optional
	// +k8s:format=k8s-uuid
	// +k8s:immutable
	UID string `json:"uid,omitempty"`
}

// Widget is a demo resource: a number of replicas of an image, serving on named ports.
type Widget struct {
	TypeMeta `json:",inline"`

	// Standard object metadata.
	Metadata ObjectMeta `json:"metadata"`

	// Spec is the desired state of the widget.
	Spec WidgetSpec `json:"spec"`
}

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	// Replicas is the number of instances to run.
	// +k8s:required
	// +k8s:minimum=1
	// +k8s:maximum=100
	Replicas *int32 `json:"replicas"`

	// Image is the container image to run. A moving "latest" tag is not allowed.
	// +k8s:required
	// +k8s:maxLength=256
	// +k8s:alpha(since: "1.36")=+k8s:neq="latest"
	Image string `json:"image"`

	// Tier is the service class; Basic when unset.
	// +k8s:optional
	Tier Tier `json:"tier,omitempty"`

	// Ports the widget serves on, keyed by name.
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:maxItems=8
	Ports []WidgetPort `json:"ports,omitempty"`

	// Zones the widget may run in, each listed once. Zones can be added, but a zone
	// holding the widget's data cannot be removed.
	// +k8s:optional
	// +k8s:listType=set
	// +k8s:maxItems=3
	// +k8s:eachVal=+k8s:format=k8s-short-name
	// +k8s:update=NoRemoveItem
	Zones []string `json:"zones,omitempty"`

	// StorageClass of the widget's volume; it cannot change after creation.
	// +k8s:optional
	// +k8s:immutable
	// +k8s:format=k8s-long-name
	StorageClass string `json:"storageClass,omitempty"`

	// Rollout tunes how changes are rolled out. Widgets allow at most 10 unavailable
	// replicas, a tighter bound than RolloutStrategy itself has.
	// +k8s:optional
	// +k8s:subfield(maxUnavailable)=+k8s:maximum=10
	Rollout *RolloutStrategy `json:"rollout,omitempty"`

	// Owner is the team responsible for the widget. It may be handed over, but once
	// assigned it cannot be cleared.
	// +k8s:optional
	// +k8s:format=k8s-short-name
	// +k8s:update=NoUnset
	Owner string `json:"owner,omitempty"`

	// Probe checks that a replica is healthy.
	// +k8s:optional
	Probe *Probe `json:"probe,omitempty"`
}

// Probe checks a replica's health with exactly one handler: the one its type names.
type Probe struct {
	// Type names the handler in use: HTTPGet or TCPSocket.
	// +k8s:required
	// +k8s:beta(since: "1.36")=+k8s:unionDiscriminator
	Type string `json:"type"`

	// HTTPGet probes with an HTTP GET request.
	// +k8s:optional
	// +k8s:unionMember
	HTTPGet *HTTPGetAction `json:"httpGet,omitempty"`

	// TCPSocket probes by opening a TCP connection.
	// +k8s:optional
	// +k8s:unionMember
	TCPSocket *TCPSocketAction `json:"tcpSocket,omitempty"`

	// PeriodSeconds is how often to probe.
	// +k8s:optional
	// +k8s:minimum=1
	PeriodSeconds *int32 `json:"periodSeconds,omitempty"`
}

// HTTPGetAction is an HTTP GET request to a port of the widget.
type HTTPGetAction struct {
	// Path to request.
	// +k8s:optional
	// +k8s:maxLength=256
	Path string `json:"path,omitempty"`

	// Port to connect to.
	// +k8s:required
	// +k8s:minimum=1
	// +k8s:maximum=65535
	Port int32 `json:"port"`
}

// TCPSocketAction opens a TCP connection to a port of the widget.
type TCPSocketAction struct {
	// Port to connect to.
	// +k8s:required
	// +k8s:minimum=1
	// +k8s:maximum=65535
	Port int32 `json:"port"`
}

// Tier is the service class of a widget.
// +k8s:enum
type Tier string

const (
	// TierBasic is the default class.
	TierBasic Tier = "Basic"
	// TierStandard adds redundancy.
	TierStandard Tier = "Standard"
	// TierPremium adds redundancy and priority support.
	TierPremium Tier = "Premium"
)

// WidgetPort is one named port of a widget.
type WidgetPort struct {
	// Name identifies the port within the widget.
	// +k8s:required
	// +k8s:format=k8s-short-name
	Name string `json:"name"`

	// Port is the port number.
	// +k8s:required
	// +k8s:minimum=1
	// +k8s:maximum=65535
	Port int32 `json:"port"`

	// Protocol of the port; TCP when unset.
	// +k8s:optional
	Protocol Protocol `json:"protocol,omitempty"`
}

// Protocol is a network protocol.
// +k8s:enum
type Protocol string

const (
	// ProtocolTCP is TCP.
	ProtocolTCP Protocol = "TCP"
	// ProtocolUDP is UDP.
	ProtocolUDP Protocol = "UDP"
)

// RolloutStrategy tunes how changes to a workload are rolled out.
type RolloutStrategy struct {
	// MaxUnavailable is how many replicas may be unavailable during a rollout.
	// +k8s:optional
	// +k8s:minimum=0
	// +k8s:maximum=100
	MaxUnavailable *int32 `json:"maxUnavailable,omitempty"`

	// PauseSeconds is how long to wait between batches.
	// +k8s:optional
	// +k8s:minimum=0
	PauseSeconds *int32 `json:"pauseSeconds,omitempty"`
}
