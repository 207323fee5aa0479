module crossfield.kdv.dev/api

go 1.22
