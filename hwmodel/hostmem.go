package hwmodel

import (
	"fmt"
	"unsafe"

	"github.com/ebref/ebref/cmdbuf"
)

// The host's memory. The model holds real bytes for what work touches —
// memory's, each cache's and the reference's, in 4 KiB blocks shared where
// they can be (share.go) — plus, while work is in flight, the bytes each
// line held before (the undo images) and the op's own buffers: a dispatch
// over a 1 GiB buffer needs several GiB of the host's. Work that would
// need more than the machine's budget faults instead, with a message that
// says so, before Go's runtime dies of it.

// HostBudget is the host memory, in bytes, a machine may hold by default
// (SetHostBudget changes it): half of the 24 GiB of the machine the model
// was measured on. The default `ebref hlk` run holds a few MiB a case; the
// 7680x4320 G-buffer frame 1.5 GiB.
const HostBudget = 12 << 30

// A work's need is estimated from its accesses, as measured on discrete
// (docs/hardware.md "Host memory"): a byte read is buffered once and
// materialised once in memory, and the caches it fills share those bytes;
// a byte written is generated into a buffer, owned by the writer's first
// cache, and kept as an undo image with its line's record while the work
// is in flight, or encoded through a surface.
const (
	// HostBytesPerRead is the host memory a work is taken to need per byte
	// it reads.
	HostBytesPerRead = 2
	// HostBytesPerWrite is the host memory a work is taken to need per byte
	// it writes.
	HostBytesPerWrite = 6
)

// SetHostBudget sets the host memory, in bytes, the machine may hold
// (HostBudget by default); 0 restores the default.
func (m *Machine) SetHostBudget(bytes uint64) {
	if bytes == 0 {
		bytes = HostBudget
	}
	m.hostBudget = bytes
}

// HostBudget returns the host memory the machine may hold.
func (m *Machine) HostBudget() uint64 { return m.hostBudget }

// hostHeld is the host memory the machine holds in its large structures,
// as it counts them: every 4 KiB block of bytes its store made (free ones
// included: they are kept for reuse), the undo images' chunks, the op's
// buffers, the reference's writer tables and the records of what is in
// flight. It leaves out what is small beside them (page and block headers,
// op records), so it is the same on every run of the same program.
func (m *Machine) hostHeld() uint64 {
	held := uint64(m.mem.store.made) << blockShift
	for _, lv := range m.levels {
		held += uint64(len(lv.undo.chunks)) * undoChunk * LineSize
	}
	held += uint64(cap(m.scratch.opBuf))
	held += uint64(len(m.ref.writers)+len(m.ref.spare)) * uint64(unsafe.Sizeof(writerTable{}))
	held += uint64(m.effects.lines) * uint64(unsafe.Sizeof(lineEffect{})+unsafe.Sizeof(fxNode{}))
	held += uint64(m.effects.accesses) * uint64(unsafe.Sizeof(access{}))
	return held
}

// checkHostMemory refuses a work whose accesses would take the machine's
// host memory past its budget: the fault names the work, what it asks,
// what the machine holds and the budget.
func (m *Machine) checkHostMemory(w cmdbuf.Work, p cmdbuf.Packet) error {
	var read, written uint64
	for i := 0; i < w.NumAccesses; i++ {
		if a := p.Access(i); a.Dir == cmdbuf.DirRead {
			read += uint64(a.Size)
		} else {
			written += uint64(a.Size)
		}
	}
	ask := read*HostBytesPerRead + written*HostBytesPerWrite
	held := m.hostHeld()
	if ask <= m.hostBudget && held <= m.hostBudget-ask {
		return nil
	}
	return fmt.Errorf("EBREF_OUT_OF_MEMORY: %s reads %d bytes and writes %d, which asks %d bytes of the host's memory "+
		"(%d a byte read, %d a byte written) beside the %d the model holds: over its host-memory budget of %d bytes "+
		"(docs/conformance.md, \"Limits\")",
		w.Kind, read, written, ask, HostBytesPerRead, HostBytesPerWrite, held, m.hostBudget)
}
