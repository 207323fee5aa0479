module extensions.kdv.dev/api

go 1.22
