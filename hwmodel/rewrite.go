package hwmodel

import (
	"fmt"

	"github.com/ebref/ebref/cmdbuf"
)

// A Rewriter replaces a submission's command buffers just before an engine
// runs it, seeing the machine as it is at that moment: every earlier
// submission of that engine has completed. It stands between a driver and
// the hardware, as a tool that rewrites packet streams would (bench's
// oracle, which replaces a recording's synchronisation with the least the
// accesses need). An error ends the submission as a fault. It must not
// keep bufs: the engine reuses the slice for a later submission.
type Rewriter func(e *Engine, bufs []*cmdbuf.Buffer) ([]*cmdbuf.Buffer, error)

// SetRewriter installs r (nil removes it) for every later submission.
func (m *Machine) SetRewriter(r Rewriter) { m.rewrite = r }

// SurfaceBlocks is a compression surface's extent, where its metadata
// lies, and the metadata code of each of its BlockSize-byte blocks as
// memory holds it: MetaPlain, MetaCompressed or MetaClear, 0 where nothing
// defined it.
type SurfaceBlocks struct {
	ID         uint16
	Base, Size uint64
	Meta       uint64
	Codes      []byte
}

// Surface returns surface id's blocks as they are now; false if no such
// surface is defined. Between submissions of one engine (a Rewriter's view)
// that is what its next submission starts from.
func (m *Machine) Surface(id uint16) (SurfaceBlocks, bool) {
	s := m.surfaces[id]
	if s == nil {
		return SurfaceBlocks{}, false
	}
	n := MetadataSize(s.Size) / 2
	out := SurfaceBlocks{ID: id, Base: s.Base, Size: s.Size, Meta: s.Meta, Codes: make([]byte, n)}
	var meta [2]byte
	for b := uint64(0); b < n; b++ {
		if s.isDefined(b) {
			m.mem.Read(s.Meta+2*b, meta[:])
			if validMeta(meta[0]) {
				out.Codes[b] = meta[0]
			}
		}
	}
	return out, true
}

// rewriteBatch applies the machine's Rewriter, if any, to the batch about
// to run; if it refuses, the batch faults and runs nothing.
func (e *Engine) rewriteBatch() {
	if e.m.rewrite == nil {
		return
	}
	bufs, err := e.m.rewrite(e, e.batch.bufs)
	if err != nil {
		e.fault(0, fmt.Sprintf("rewriting the submission: %v", err))
		return
	}
	e.batch.bufs = bufs
}
