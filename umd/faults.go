package umd

import (
	"fmt"
	"sort"
	"strings"
)

// Faults break the Barrier translation on purpose, one kind of packet at a
// time, so a conformance suite can show that it catches each kind of
// mistake a driver can make. A device with no faults set translates
// correctly.
type Faults struct {
	// DropWait emits no WAIT for barriers (the stall before cache and
	// compression work and the stall that holds later work).
	DropWait bool
	// NarrowDrain drains only the lowest pipeline stage a barrier's
	// SyncBefore covers: later-stage producers are not waited for.
	NarrowDrain bool
	// DropFlush flushes no cache.
	DropFlush bool
	// DropInvalidate invalidates no cache.
	DropInvalidate bool
	// DropDecompress emits no DECOMPRESS.
	DropDecompress bool
	// DropMetadataInit emits no METADATA_INIT (neither DISCARD's nor the
	// one that re-enables compression).
	DropMetadataInit bool
	// DropSplitEndWait emits no wait at the end of a split barrier.
	DropSplitEndWait bool
	// DropRangedFlush emits no cache operation for ranged (atomic-copy)
	// barriers.
	DropRangedFlush bool
	// DropMetadataWriteback emits no write-back of a surface's metadata
	// bytes before a METADATA_INIT (the CACHE that covers only the
	// metadata; errata E-METADATA-WRITEBACK).
	DropMetadataWriteback bool
	// DropSyncCopy emits no implicit wait and flush after a copy, discard or
	// resolve in a list without ALLOW_EXTENDED_ASYNC.
	DropSyncCopy bool
}

// faultNames maps the names FaultByName accepts to the fields.
var faultNames = map[string]func(*Faults) *bool{
	"drop-wait":          func(f *Faults) *bool { return &f.DropWait },
	"narrow-drain":       func(f *Faults) *bool { return &f.NarrowDrain },
	"drop-flush":         func(f *Faults) *bool { return &f.DropFlush },
	"drop-invalidate":    func(f *Faults) *bool { return &f.DropInvalidate },
	"drop-decompress":    func(f *Faults) *bool { return &f.DropDecompress },
	"drop-metadata-init": func(f *Faults) *bool { return &f.DropMetadataInit },
	"drop-split-end-wait": func(f *Faults) *bool {
		return &f.DropSplitEndWait
	},
	"drop-ranged-flush": func(f *Faults) *bool { return &f.DropRangedFlush },
	"drop-metadata-writeback": func(f *Faults) *bool {
		return &f.DropMetadataWriteback
	},
	"drop-sync-copy": func(f *Faults) *bool { return &f.DropSyncCopy },
}

// FaultNames lists the fault names, sorted.
func FaultNames() []string {
	var out []string
	for n := range faultNames {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// FaultByName returns the Faults with one named fault set.
func FaultByName(name string) (Faults, error) {
	set, ok := faultNames[name]
	if !ok {
		return Faults{}, fmt.Errorf("umd: no fault %q (have %s)", name, strings.Join(FaultNames(), ", "))
	}
	var f Faults
	*set(&f) = true
	return f, nil
}

// String names the faults set, "none" for none.
func (f Faults) String() string {
	var on []string
	for _, n := range FaultNames() {
		if *faultNames[n](&f) {
			on = append(on, n)
		}
	}
	if on == nil {
		return "none"
	}
	return strings.Join(on, ",")
}

// TranslatorFaultNames lists the faults that apply to a translator's
// replies (seam.go's applyFaults): those that name a packet kind, and
// drop-sync-copy, which is ebref's own work. drop-ranged-flush and
// drop-metadata-writeback name a packet by its purpose, which a reply
// does not say.
func TranslatorFaultNames() []string {
	var out []string
	for _, n := range FaultNames() {
		if n != "drop-ranged-flush" && n != "drop-metadata-writeback" {
			out = append(out, n)
		}
	}
	return out
}
