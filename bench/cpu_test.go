package bench

import (
	"context"
	"testing"

	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hwmodel"
)

// BenchmarkWorkload is the CPU cost of recording and simulating one frame
// of each workload with each strategy on each profile: ns and allocations
// per frame (go test ./bench -run NONE -bench Workload -benchmem).
func BenchmarkWorkload(b *testing.B) {
	for _, w := range Workloads {
		for _, s := range Strategies {
			sc, err := Scenario(w, s)
			if err != nil {
				b.Fatal(err)
			}
			for _, p := range hwmodel.Profiles() {
				b.Run(w.Name+"/"+string(s)+"/"+p.Name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if r := hlk.RunContext(context.Background(), driverFor(s, nil), sc, p, ""); r.Status != hlk.Pass {
							b.Fatal(r.Failures)
						}
					}
				})
			}
		}
	}
}
