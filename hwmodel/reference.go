package hwmodel

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
	writers map[uint64]*[PageSize / 4]uint32
	uniform map[uint64]uint32
	spare   []*[PageSize / 4]uint32
	// lastPage and last cache the most recent writers lookup (nil: none).
	lastPage uint64
	last     *[PageSize / 4]uint32
}

// writersOf returns page pg's table of last writers, nil if it has none.
func (r *reference) writersOf(pg uint64) *[PageSize / 4]uint32 {
	if r.last != nil && r.lastPage == pg {
		return r.last
	}
	t := r.writers[pg]
	if t != nil {
		r.lastPage, r.last = pg, t
	}
	return t
}

func newReference() *reference {
	return &reference{mem: newMem(), writers: map[uint64]*[PageSize / 4]uint32{}, uniform: map[uint64]uint32{}}
}

// setTable gives page pg table t (nil: none).
func (r *reference) setTable(pg uint64, t *[PageSize / 4]uint32) {
	if old := r.writers[pg]; old != nil && old != t {
		r.spare = append(r.spare, old)
	}
	if t == nil {
		delete(r.writers, pg)
	} else {
		r.writers[pg] = t
	}
	if r.lastPage == pg {
		r.last = nil
	}
}

// discard forgets unmapped memory: its bytes and who wrote them.
func (r *reference) discard(addr, n uint64) {
	r.mem.Discard(addr, n)
	for index := (addr + PageSize - 1) / PageSize; index < (addr+n)/PageSize; index++ {
		r.setTable(index, nil)
		delete(r.uniform, index)
	}
	r.last = nil
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
			// The whole page: one writer.
			r.setTable(pg, nil)
			if gid == 0 {
				delete(r.uniform, pg)
			} else {
				r.uniform[pg] = gid
			}
			a = stop
			continue
		}
		t := r.writersOf(pg)
		if t == nil {
			u, ok := r.uniform[pg]
			if !ok && gid == 0 {
				a = stop
				continue
			}
			t = takeSpare(&r.spare, func() *[PageSize / 4]uint32 { return new([PageSize / 4]uint32) })
			for i := range t {
				t[i] = u
			}
			delete(r.uniform, pg)
			r.writers[pg] = t
		}
		for ; a < stop; a += 4 {
			t[a%PageSize/4] = gid
		}
	}
}

func (r *reference) write(addr uint64, data []byte, gid uint32) {
	r.mem.Write(addr, data)
	r.tag(addr, uint64(len(data)), gid)
}

func (r *reference) fill(addr, n uint64, v byte, gid uint32) {
	r.mem.Fill(addr, n, v)
	r.tag(addr, n, gid)
}

// writer is the gid of the op that last wrote addr's dword (0: none since
// the memory was created, filled or written by the CPU).
func (r *reference) writer(addr uint64) uint32 {
	t := r.writersOf(addr / PageSize)
	if t == nil {
		return r.uniform[addr/PageSize]
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
		if t := r.writersOf(pg); t != nil {
			for i := a % PageSize / 4; a < stop; a, i = a+4, i+1 {
				w = max(w, t[i])
			}
		} else {
			w = max(w, r.uniform[pg])
		}
		a = stop
	}
	return w
}
