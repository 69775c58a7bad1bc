module github.com/ebref/ebref

go 1.26.8

require (
	github.com/stretchr/testify v1.12.1
	golang.org/x/arch v0.32.0
)

require (
	github.com/cilium/ebpf v0.22.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
