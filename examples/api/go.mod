module demo.kdv.dev/api

go 1.22
