package umd

import (
	"fmt"
	"sync"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
)

// Queries: a query heap is GPU memory of one 8-byte result a query
// (D3D12_QUERY_HEAP_DESC; ddi.QueryResultSize), written by EndQuery and
// copied into a buffer by ResolveQueryData.
//
// The model's values: an occlusion query counts the draws its list
// recorded between BeginQuery and EndQuery (every draw of the model passes
// one sample), a binary-occlusion query is 1 if there was one and 0 if
// not, a timestamp is the EndQuery's work identity (never 0). EndQuery's
// write is made in the COPY stage through the copy client and, like a
// synchronous copy, followed by a wait for it and a flush of its writes,
// so the ResolveQueryData after it (which D3D12 orders after EndQuery
// with no barrier: a query heap has no state) reads it; the resolve
// invalidates the copy client's caches over the results it reads, copies
// them in the COPY stage, and is synchronous too (E-SYNC-COPY). Neither is
// predicated: ResolveQueryData is how a predicate is usually written.

// MaxQueries bounds a query heap's count: 1 Mi queries, 8 MiB of results.
const MaxQueries = 1 << 20

// QueryHeap is a query heap.
type QueryHeap struct {
	Handle ddi.HQueryHeap
	Type   ddi.QueryHeapType
	Count  uint32
	Addr   uint64 // the first result's address; query i's is Addr + 8i

	mu    sync.Mutex
	ended []bool // a list recorded an EndQuery of the query
}

// CreateQueryHeap creates a query heap of count queries of a type ebref
// implements (OCCLUSION, TIMESTAMP).
func (d *Device) CreateQueryHeap(t ddi.QueryHeapType, count uint32) (ddi.HQueryHeap, error) {
	const cmd = "CreateQueryHeap"
	bad := func(field, value, format string, args ...any) error {
		return &Message{Severity: SeverityError, Category: CategoryStateCreation, ID: MsgCreateQueryHeapInvalid, Command: cmd,
			Call: -1, Barrier: -1, Field: field, Value: value, Rule: fmt.Sprintf(format, args...)}
	}
	switch {
	case t != ddi.QueryHeapTypeOcclusion && t != ddi.QueryHeapTypeTimestamp:
		return 0, bad("Type", t.String(), "ebref implements OCCLUSION and TIMESTAMP query heaps")
	case count == 0 || count > MaxQueries:
		return 0, bad("Count", fmt.Sprint(count), "a query heap holds 1 to %d queries", MaxQueries)
	}
	d.mu.Lock()
	addr, err := d.m.Allocate(uint64(count)*ddi.QueryResultSize, 0, false)
	d.mu.Unlock()
	if err != nil {
		return 0, &Message{Severity: SeverityError, Category: CategoryStateCreation, ID: MsgOutOfMemory, Command: cmd,
			Call: -1, Barrier: -1, Field: "Count", Value: fmt.Sprint(count), Rule: err.Error()}
	}
	h := ddi.HQueryHeap(d.handles.Add(1))
	q := &QueryHeap{Handle: h, Type: t, Count: count, Addr: addr, ended: make([]bool, count)}
	d.rmu.Lock()
	if d.queryHeaps == nil {
		d.queryHeaps = map[ddi.HQueryHeap]*QueryHeap{}
	}
	d.queryHeaps[h] = q
	d.rmu.Unlock()
	return h, nil
}

// QueryHeap returns a query heap by handle.
func (d *Device) QueryHeap(h ddi.HQueryHeap) (*QueryHeap, bool) {
	d.rmu.RLock()
	defer d.rmu.RUnlock()
	q, ok := d.queryHeaps[h]
	return q, ok
}

// QueryHeapRange is where a query heap's results lie: the address of the
// first and their size in bytes.
func (d *Device) QueryHeapRange(h ddi.HQueryHeap) (addr, size uint64, ok bool) {
	q, ok := d.QueryHeap(h)
	if !ok {
		return 0, 0, false
	}
	return q.Addr, uint64(q.Count) * ddi.QueryResultSize, true
}

// queryKey names one query of one heap.
type queryKey struct {
	h ddi.HQueryHeap
	i uint32
}

// queryArgs checks the heap, type and index a query command names.
func (w *work) queryArgs(h ddi.HQueryHeap, t ddi.QueryType, first, count uint32, id MessageID) *QueryHeap {
	q, ok := w.cl.d.QueryHeap(h)
	switch {
	case !ok:
		w.fail(id, "pQueryHeap", fmt.Sprintf("0x%x", uint64(h)), "no query heap has this handle")
	case !q.Type.HeapTakes(t):
		w.fail(id, "Type", t.String(), "a %s query heap does not hold %s queries", q.Type, t)
	case t != ddi.QueryTypeTimestamp && w.cl.typ != ddi.CommandListTypeDirect:
		w.fail(id, "Type", t.String(), "a %s command list has no %s queries: only timestamps", w.cl.typ, t)
	case uint64(first)+uint64(count) > uint64(q.Count) || count == 0:
		w.fail(id, "Index", fmt.Sprintf("%d+%d", first, count), "outside the heap's %d queries", q.Count)
	default:
		return q
	}
	return nil
}

// BeginQuery starts an occlusion or binary-occlusion query (a timestamp has
// no beginning). It records no work: the query counts the draws after it.
func (cl *CommandList) BeginQuery(h ddi.HQueryHeap, t ddi.QueryType, index uint32) {
	w := cl.begin("BeginQuery", ddi.CommandListTypeDirect, ddi.CommandListTypeCompute)
	if w == nil {
		return
	}
	defer cl.leave()
	if w.queryArgs(h, t, index, 1, MsgBeginEndQueryInvalid) == nil {
		return
	}
	k := queryKey{h, index}
	switch _, open := cl.openQueries[k]; {
	case t == ddi.QueryTypeTimestamp:
		w.fail(MsgBeginEndQueryInvalid, "Type", t.String(), "a timestamp query is only ended (EndQuery), never begun")
	case open:
		w.fail(MsgBeginEndQueryInvalid, "Index", fmt.Sprint(index), "the query is already begun in this command list")
	default:
		if cl.openQueries == nil {
			cl.openQueries = map[queryKey]int{}
		}
		cl.openQueries[k] = cl.draws
	}
}

// EndQuery ends a query and writes its result (see the top of the file).
func (cl *CommandList) EndQuery(h ddi.HQueryHeap, t ddi.QueryType, index uint32) {
	w := cl.begin("EndQuery", ddi.CommandListTypeDirect, ddi.CommandListTypeCompute)
	if w == nil {
		return
	}
	defer cl.leave()
	q := w.queryArgs(h, t, index, 1, MsgBeginEndQueryInvalid)
	if q == nil {
		return
	}
	k := queryKey{h, index}
	var value uint32
	if t == ddi.QueryTypeTimestamp {
		value = w.id
	} else {
		since, open := cl.openQueries[k]
		if !open {
			w.fail(MsgBeginEndQueryInvalid, "Index", fmt.Sprint(index), "the query was not begun in this command list")
			return
		}
		delete(cl.openQueries, k)
		value = uint32(min(cl.draws-since, 1<<31))
		if t == ddi.QueryTypeBinaryOcclusion {
			value = min(value, 1)
		}
	}
	w.unpredicated = true
	addr := q.Addr + uint64(index)*ddi.QueryResultSize
	// One UINT64: the low dword is the value, the high one zero.
	cl.accs = append(cl.accs, accessSpec{acc: cmdbuf.Access{Addr: addr, Size: 4, Dir: cmdbuf.DirWrite, Client: cmdbuf.ClientCopy}})
	w.emit(cmdbuf.WorkClear, cmdbuf.StageCopy, value)
	cl.accs = append(cl.accs, accessSpec{acc: cmdbuf.Access{Addr: addr + 4, Size: 4, Dir: cmdbuf.DirWrite, Client: cmdbuf.ClientCopy}})
	w.emit(cmdbuf.WorkClear, cmdbuf.StageCopy, 0)
	w.syncTail(cmdbuf.StageCopy)
	q.mu.Lock()
	q.ended[index] = true
	q.mu.Unlock()
}

// ResolveQueryData copies count results from start into dst at offset,
// 8 bytes each (see the top of the file). The destination is written as a
// copy destination: COPY_DEST in the legacy state, COPY_DEST access in
// the COPY sync scope with enhanced barriers.
func (cl *CommandList) ResolveQueryData(h ddi.HQueryHeap, t ddi.QueryType, start, count uint32, dst ddi.HResource, offset uint64) {
	w := cl.begin("ResolveQueryData", ddi.CommandListTypeDirect, ddi.CommandListTypeCompute)
	if w == nil {
		return
	}
	defer cl.leave()
	q := w.queryArgs(h, t, start, count, MsgResolveQueryDataInvalid)
	if q == nil {
		return
	}
	if offset%ddi.QueryResultSize != 0 {
		w.fail(MsgResolveQueryDataInvalid, "AlignedDestinationBufferOffset", fmt.Sprint(offset), "must be a multiple of 8")
		return
	}
	size := uint64(count) * ddi.QueryResultSize
	if r := cl.lookup(dst); r != nil && (!r.IsBuffer() || offset > r.Desc.DataSize || size > r.Desc.DataSize-offset) {
		w.fail(MsgResolveQueryDataInvalid, "pDestinationBuffer", fmt.Sprintf("%d+%d", offset, size),
			"the destination is not a buffer with room for %d results of 8 bytes at the offset", count)
		return
	}
	q.mu.Lock()
	for i := start; i < start+count; i++ {
		if !q.ended[i] {
			q.mu.Unlock()
			w.fail(MsgResolveQueryInvalidState, "StartIndex", fmt.Sprint(i), "query %d was never ended (EndQuery): its result is undefined", i)
			return
		}
	}
	q.mu.Unlock()
	w.unpredicated = true
	src := q.Addr + uint64(start)*ddi.QueryResultSize
	if inval := cl.caches.of(clients(cmdbuf.ClientCopy)).anyOf; inval != 0 {
		cl.put(cmdbuf.AppendCache(cl.room(), cmdbuf.CacheOp{Invalidate: inval, Addr: src, Size: size}, false))
	}
	cl.accs = append(cl.accs, accessSpec{acc: cmdbuf.Access{Addr: src, Size: size, Dir: cmdbuf.DirRead, Client: cmdbuf.ClientCopy}})
	w.access("pDestinationBuffer", BufferRange(dst, offset, size), ddi.AccessCopyDest, cmdbuf.DirWrite, cmdbuf.ClientCopy)
	w.emitSync(cmdbuf.WorkCopy, cmdbuf.StageCopy)
}
