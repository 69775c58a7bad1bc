package hwmodel_test

import (
	"fmt"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/hwmodel"
)

// A dispatch writes buffer X and a second dispatch reads it. The WAIT
// orders the read after the write, but without a CACHE packet the write
// stays in the writer's cache: the judge names the hazard, the op, the
// earlier op it conflicts with and the packet that would have prevented
// it. With the CACHE packet the same stream is clean.
func Example_missingCache() {
	for _, withCache := range []bool{false, true} {
		hazards, err := dependentDispatches(withCache)
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		fmt.Printf("with CACHE %v: %d hazards\n", withCache, len(hazards))
		for _, h := range hazards {
			fmt.Printf("  %s on %s by %s\n  after %s\n  fix: %s\n", h.Kind, h.Resource, h.Op, h.Earlier, h.Fix)
		}
	}
	// Output:
	// with CACHE false: 1 hazards
	//   missing-flush on X by DISPATCH read
	//   after DISPATCH (dword 0 on DIRECT#0)
	//   fix: flushing SHADER_L0[DIRECT#0] before dword 13 would write it back
	// with CACHE true: 0 hazards
}

// dependentDispatches runs the two dispatches on the discrete profile's
// direct engine, with or without the CACHE packet between them, and
// returns what the judge found.
func dependentDispatches(withCache bool) ([]hwmodel.Hazard, error) {
	p, err := hwmodel.LookupProfile("discrete")
	if err != nil {
		return nil, err
	}
	m, err := hwmodel.New(p)
	if err != nil {
		return nil, err
	}
	direct, err := m.NewEngine(hwmodel.EngineDirect)
	if err != nil {
		return nil, err
	}
	const size = 4096
	x, err := m.Allocate(size, 0, false)
	if err != nil {
		return nil, err
	}
	y, err := m.Allocate(size, 0, false)
	if err != nil {
		return nil, err
	}
	m.Label(x, size, "X")
	m.Label(y, size, "Y")

	var w []uint32
	w = cmdbuf.AppendWork(w, cmdbuf.Work{Kind: cmdbuf.WorkDispatch, Stage: cmdbuf.StageCompute, Duration: 100, ID: 1},
		cmdbuf.Access{Addr: x, Size: size, Dir: cmdbuf.DirWrite, Client: cmdbuf.ClientShaderStore})
	w = cmdbuf.AppendWait(w, cmdbuf.Wait{Drain: cmdbuf.StageCompute.Mask(), Hold: cmdbuf.StageCompute.Mask() | cmdbuf.StageCP.Mask()})
	if withCache {
		// Write the writer's cache back, drop the reader's stale lines.
		w = cmdbuf.AppendCache(w, cmdbuf.CacheOp{Flush: cmdbuf.CacheShaderL0.Mask(), Invalidate: cmdbuf.CacheTextureL0.Mask()}, false)
	}
	w = cmdbuf.AppendWork(w, cmdbuf.Work{Kind: cmdbuf.WorkDispatch, Stage: cmdbuf.StageCompute, Duration: 100, ID: 2},
		cmdbuf.Access{Addr: x, Size: size, Dir: cmdbuf.DirRead, Client: cmdbuf.ClientShaderLoad},
		cmdbuf.Access{Addr: y, Size: size, Dir: cmdbuf.DirWrite, Client: cmdbuf.ClientShaderStore})
	b := cmdbuf.NewBuffer(0)
	b.Append(w)
	direct.Submit(b)
	if err := m.Run(); err != nil {
		return nil, err
	}
	if f := m.Faults(); len(f) > 0 {
		return nil, fmt.Errorf("faults: %v", f)
	}
	return m.Hazards(), nil
}
