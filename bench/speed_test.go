package bench

import (
	"context"
	"testing"
)

// BenchmarkRunAll measures what `ebref bench` runs: every workload with
// every strategy (the best search and the expert's copy-list choice
// included) on every profile, its cells side by side on GOMAXPROCS
// processors (go test ./bench -run NONE -bench RunAll -benchtime 1x).
func BenchmarkRunAll(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		rows, err := Run(context.Background(), Config{})
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range rows {
			if r.Failed() {
				b.Fatalf("%s %s %s: %v", r.Workload, r.Profile, r.Strategy, r.Failures)
			}
		}
	}
}
