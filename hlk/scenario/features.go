package scenario

import (
	"maps"
	"slices"

	"github.com/ebref/ebref/hwmodel"
)

// features are what `require` can ask of a profile; a case requiring one
// its profile lacks is NotSupported there.
var Features = map[string]func(p *hwmodel.Profile) bool{
	// compression: the profile compresses some kind of texture.
	"compression": func(p *hwmodel.Profile) bool {
		c := p.Compresses
		return c.RenderTarget || c.DepthStencil || c.UnorderedAccess
	},
	// caches: some client's path has a cache another client's lacks, so
	// barriers need cache operations.
	"caches": func(p *hwmodel.Profile) bool { return len(p.Caches) > 1 },
}

func featureNames() []string { return slices.Sorted(maps.Keys(Features)) }

// metrics are what `expect cost` can bound: the machine's counters summed
// over its engines.
var Metrics = map[string]func(c hwmodel.Counters) uint64{
	"cycles":             func(c hwmodel.Counters) uint64 { return c.Cycles },
	"issue-cycles":       func(c hwmodel.Counters) uint64 { return c.IssueCycles },
	"wait-cycles":        func(c hwmodel.Counters) uint64 { return c.WaitCycles },
	"work-cycles":        func(c hwmodel.Counters) uint64 { return c.WorkCycles },
	"async-cycles":       func(c hwmodel.Counters) uint64 { return c.AsyncCycles },
	"stall-cycles":       func(c hwmodel.Counters) uint64 { return c.StallCycles },
	"held-cycles":        func(c hwmodel.Counters) uint64 { return c.HeldCycles },
	"cache-cycles":       func(c hwmodel.Counters) uint64 { return c.CacheCycles },
	"compression-cycles": func(c hwmodel.Counters) uint64 { return c.CompressionCycles },
	"batch-end-cycles":   func(c hwmodel.Counters) uint64 { return c.BatchEndCycles },
	"flushed-lines":      func(c hwmodel.Counters) uint64 { return sum(c.FlushedLines[:]) },
	"invalidated-lines":  func(c hwmodel.Counters) uint64 { return sum(c.InvalidatedLines[:]) },
	"decompressed-bytes": func(c hwmodel.Counters) uint64 { return c.DecompressedBytes },
	"metadata-bytes":     func(c hwmodel.Counters) uint64 { return c.MetadataBytes },
	"submissions":        func(c hwmodel.Counters) uint64 { return c.Submissions },
}

func metricNames() []string { return slices.Sorted(maps.Keys(Metrics)) }

func sum(v []uint64) (s uint64) {
	for _, x := range v {
		s += x
	}
	return s
}
