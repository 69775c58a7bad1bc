package hwmodel

import "slices"

// reference is the sequentially consistent machine the model is judged
// against: plain memory, one operation at a time in issue order, no caches,
// no compression (a decompress does nothing; a metadata initialisation
// writes the value the surface then reads as). It also remembers, per
// dword, which op wrote last, so a hazard can name the write a read missed.
type reference struct {
	mem *Mem
	// writers holds a page's last writer per dword, or uniform its one
	// last writer when a single op wrote it whole (a clear or a draw over
	// a surface), which spares a table of a quarter of the page's size.
	// A page is in one map at most; in neither, nobody wrote it.
	writers map[uint64]*writerTable
	uniform map[uint64]uint32
	spare   []*writerTable
	// The most recent page looked up, absent ones included: its table,
	// or its one writer.
	lastPage uint64
	lastT    *writerTable
	lastU    uint32
	lastOK   bool
}

type writerTable [PageSize / 4]uint32

// page returns page pg's table of last writers, or (nil and) its one
// writer, 0 if nobody wrote it.
func (r *reference) page(pg uint64) (*writerTable, uint32) {
	if r.lastOK && r.lastPage == pg {
		return r.lastT, r.lastU
	}
	t, u := r.writers[pg], uint32(0)
	if t == nil {
		u = r.uniform[pg]
	}
	r.lastPage, r.lastT, r.lastU, r.lastOK = pg, t, u, true
	return t, u
}

// newReference makes a reference whose memory takes its blocks of bytes
// from store, the machine's, so the two can share them.
func newReference(store *dataStore) *reference {
	return &reference{mem: newMem(store), writers: map[uint64]*writerTable{}, uniform: map[uint64]uint32{}}
}

// setPage makes t page pg's table, or, with t nil, u its one writer.
func (r *reference) setPage(pg uint64, t *writerTable, u uint32) {
	if old := r.writers[pg]; old != nil && old != t {
		r.spare = append(r.spare, old)
	}
	switch {
	case t != nil:
		r.writers[pg] = t
		delete(r.uniform, pg)
	case u != 0:
		delete(r.writers, pg)
		r.uniform[pg] = u
	default:
		delete(r.writers, pg)
		delete(r.uniform, pg)
	}
	r.lastPage, r.lastT, r.lastU, r.lastOK = pg, t, u, true
}

// discard forgets unmapped memory: its bytes and who wrote them.
func (r *reference) discard(addr, n uint64) {
	r.mem.Discard(addr, n)
	for index := (addr + PageSize - 1) / PageSize; index < (addr+n)/PageSize; index++ {
		r.setPage(index, nil, 0)
	}
}

func (r *reference) read(addr, n uint64) []byte {
	b := make([]byte, n)
	r.mem.Read(addr, b)
	return b
}

func (r *reference) tag(addr, n uint64, gid uint32) {
	end := addr + n
	for a := addr &^ 3; a < end; {
		pg := a / PageSize
		stop := min(end, (pg+1)*PageSize)
		if a == pg*PageSize && stop == (pg+1)*PageSize {
			r.setPage(pg, nil, gid) // the whole page: one writer
			a = stop
			continue
		}
		t, u := r.page(pg)
		if t == nil {
			if u == 0 && gid == 0 {
				a = stop
				continue
			}
			t = takeSpare(&r.spare, func() *writerTable { return new(writerTable) })
			for i := range t {
				t[i] = u
			}
			r.setPage(pg, t, 0)
		}
		edge := a == pg*PageSize || stop == (pg+1)*PageSize
		for ; a < stop; a += 4 {
			t[a%PageSize/4] = gid
		}
		if edge && !slices.ContainsFunc(t[:], func(w uint32) bool { return w != gid }) {
			// Writes in parts (a surface's rows) that cover the page
			// with one op's: one writer again, and the table goes back.
			// Checked only when a write reaches the page's first or last
			// dword, as the last part of such a run does.
			r.setPage(pg, nil, gid)
		}
	}
}

// writeCopy writes data, which a copy read at src, to addr, keeping a
// generator rather than bytes where the source had one.
func (r *reference) writeCopy(addr uint64, data []byte, src uint64, gid uint32) {
	r.mem.WriteCopy(addr, data, src)
	r.tag(addr, uint64(len(data)), gid)
}

// writeFrom writes data the CPU wrote, which from (the machine's memory)
// holds at addr, sharing its whole blocks; no op wrote it.
func (r *reference) writeFrom(addr uint64, data []byte, from *Mem) {
	r.mem.WriteFrom(addr, data, from)
	r.tag(addr, uint64(len(data)), 0)
}

// writeGen writes n bytes of g's at addr, keeping g rather than the bytes
// where it covers whole blocks.
func (r *reference) writeGen(addr, n uint64, g generator, gid uint32) {
	r.mem.WriteGen(addr, n, g)
	r.tag(addr, n, gid)
}

func (r *reference) fill(addr, n uint64, v byte, gid uint32) {
	r.mem.Fill(addr, n, v)
	r.tag(addr, n, gid)
}

// writer is the gid of the op that last wrote addr's dword (0: none since
// the memory was created, filled or written by the CPU).
func (r *reference) writer(addr uint64) uint32 {
	t, u := r.page(addr / PageSize)
	if t == nil {
		return u
	}
	return t[addr%PageSize/4]
}

// lastWriter is the greatest gid among the last writers of the dwords
// overlapping [addr, addr+n): no byte there was written by a later op.
func (r *reference) lastWriter(addr, n uint64) uint32 {
	var w uint32
	end := addr + n
	for a := addr &^ 3; a < end; {
		pg := a / PageSize
		stop := min(end, (pg+1)*PageSize)
		if t, u := r.page(pg); t != nil {
			for i := a % PageSize / 4; a < stop; a, i = a+4, i+1 {
				w = max(w, t[i])
			}
		} else {
			w = max(w, u)
		}
		a = stop
	}
	return w
}
