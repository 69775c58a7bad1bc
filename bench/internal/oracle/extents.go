package oracle

import (
	"slices"
	"sort"
)

// extents maps disjoint byte ranges to values, sorted by address. The
// oracle's state is kept per byte range so a 8 MiB render target costs one
// entry until accesses cut it.
type extents[V any] struct {
	xs      []extent[V]
	scratch []extent[V] // update's, reused call to call
}

type extent[V any] struct {
	lo, hi uint64
	v      V
}

// first is the index of the first extent ending after addr.
func (m *extents[V]) first(addr uint64) int {
	return sort.Search(len(m.xs), func(i int) bool { return m.xs[i].hi > addr })
}

// each calls f for every part of [lo, hi) that has a value.
func (m *extents[V]) each(lo, hi uint64, f func(lo, hi uint64, v V)) {
	for i := m.first(lo); i < len(m.xs) && m.xs[i].lo < hi; i++ {
		x := m.xs[i]
		f(max(lo, x.lo), min(hi, x.hi), x.v)
	}
}

// any reports whether some part of [lo, hi) has a value for which keep
// is true.
func (m *extents[V]) any(lo, hi uint64, keep func(V) bool) bool {
	for i := m.first(lo); i < len(m.xs) && m.xs[i].lo < hi; i++ {
		if keep(m.xs[i].v) {
			return true
		}
	}
	return false
}

// update replaces every part of [lo, hi) by what f makes of it: f sees a
// part's range and value (ok false for a gap) and returns the new one, or
// keep false to leave the part without a value. Parts outside [lo, hi) are
// kept.
func (m *extents[V]) update(lo, hi uint64, f func(lo, hi uint64, v V, ok bool) (nv V, keep bool)) {
	if lo >= hi {
		return
	}
	i := m.first(lo)
	j := i
	for j < len(m.xs) && m.xs[j].lo < hi {
		j++
	}
	out := m.scratch[:0]
	put := func(lo, hi uint64, v V, ok bool) {
		if nv, keep := f(lo, hi, v, ok); keep {
			out = append(out, extent[V]{lo, hi, nv})
		}
	}
	cur := lo
	for _, x := range m.xs[i:j] {
		if x.lo < lo {
			out = append(out, extent[V]{x.lo, lo, x.v})
		}
		if x.lo > cur {
			var zero V
			put(cur, x.lo, zero, false)
		}
		put(max(lo, x.lo), min(hi, x.hi), x.v, true)
		if x.hi > hi {
			out = append(out, extent[V]{hi, x.hi, x.v})
		}
		cur = x.hi
	}
	if cur < hi {
		var zero V
		put(cur, hi, zero, false)
	}
	m.xs = slices.Replace(m.xs, i, j, out...)
	m.scratch = out
}

// set gives all of [lo, hi) the value v.
func (m *extents[V]) set(lo, hi uint64, v V) {
	m.update(lo, hi, func(_, _ uint64, _ V, _ bool) (V, bool) { return v, true })
}

// clear removes every value in [lo, hi).
func (m *extents[V]) clear(lo, hi uint64) {
	m.update(lo, hi, func(_, _ uint64, v V, _ bool) (V, bool) { return v, false })
}
