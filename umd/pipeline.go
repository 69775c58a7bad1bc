package umd

import (
	"sync"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/umd/translator"
)

// Pipelined translation (docs/translators.md "Pipelining"). When the
// device's translator can take a list's requests ahead of their replies
// (a translator.Pipeliner: one in another process), a Barrier call is
// validated, tracked and its request sent as always, but its packets are
// recorded later: when the list's packets are needed (Close, Records,
// Buffer, SurfaceOps), or when the queue is full. Until then the list
// records into a stage, a buffer of its own in buf's place: the call's
// MARKER, then every later command's packets, as always (room, put and
// buf.Last, untouched: the synchronous path pays nothing for this).
// collect reads the replies in order and records the stage's packets and
// the replies into the list's buffer, packet by packet, as they would
// have been recorded call by call: the same packets, chunks, records and
// surface operations, and patches; a failure stops the list at the call
// that failed, as if nothing after it had been recorded.
//
// The reference (umd.Reference) and any translator in process are no
// Pipeliner: their calls take translate's synchronous path.

// pendingCall is a Barrier call whose reply is not yet read: its request
// (the list takes a spare one for the next call), a copy of its records,
// where its MARKER is in the stage, and what the list held when it was
// made, to undo what later commands added should it fail.
type pendingCall struct {
	call        int
	req         translator.Request
	recs        []byte
	marker      cmdbuf.Pos
	warns       int
	errNil      bool
	patches     int
	assumptions int
}

// staging is what a list has while calls are queued: the calls, and the
// stage its commands are recorded into. A run has many short lists, each
// staging a moment: they share stagings through a pool, so the stage's
// chunks and the calls' requests are made once, not once a list.
type staging struct {
	pending []pendingCall
	stage   *cmdbuf.Buffer
}

var stagings = sync.Pool{New: func() any { return &staging{stage: cmdbuf.NewBuffer(0)} }}

// translateLater queues the call whose request the list has built, and
// stages its MARKER.
func (cl *CommandList) translateLater(call int) {
	if cl.pipe == nil {
		cl.pipe = cl.d.xl.(translator.Pipeliner).Pipeline()
	}
	if !cl.pipe.Send(&cl.req) {
		cl.collect()
		if cl.xerr != nil { // an earlier call failed: the list stopped there
			return
		}
		cl.pipe.Send(&cl.req) // an empty queue takes any request
	}
	if cl.stg == nil {
		cl.stg = stagings.Get().(*staging)
		cl.stg.stage.Reset()
		cl.real, cl.buf = cl.buf, cl.stg.stage
		cl.stagedPatches = len(cl.patches)
	}
	st := cl.stg
	if len(st.pending) < cap(st.pending) {
		st.pending = st.pending[:len(st.pending)+1]
	} else {
		st.pending = append(st.pending, pendingCall{})
	}
	pc := &st.pending[len(st.pending)-1]
	pc.req, cl.req = cl.req, pc.req
	pc.recs = append(pc.recs[:0], pc.req.Records...) // the caller's memory
	pc.req.Records, cl.req.Records = pc.recs, nil
	// The residents may be the list's (seam.go residents), which the next
	// call rewrites; the request is already on its way and the reply's
	// check does not read them.
	pc.req.Residents = nil
	pc.call, pc.warns, pc.errNil = call, len(cl.warns), cl.err == nil
	pc.patches, pc.assumptions = len(cl.patches), len(cl.assumptions)
	cl.put(cl.appendMarker(cl.room(), "Barrier"))
	pc.marker = cl.buf.Last()
}

// collect reads the replies of the list's pending calls and records the
// stage into the list's buffer, each reply after its call's MARKER. At
// the first call that fails, the list stops as it would have there: what
// later commands recorded is dropped, and the messages and patches they
// added.
func (cl *CommandList) collect() {
	if cl.stg == nil {
		return
	}
	stage, pending := cl.buf, cl.stg.pending
	cl.buf, cl.real = cl.real, nil
	pi, next := cl.stagedPatches, 0
	for ci, chunk := range stage.Chunks() {
		for off := 0; off < len(chunk); {
			h := cmdbuf.Header(chunk[off])
			words := chunk[off:min(off+1+h.Len(), len(chunk))]
			at := cmdbuf.Pos{Chunk: ci, Off: off}
			off += len(words)
			switch {
			case h.Op() == cmdbuf.OpChain: // the stage's own
			case next < len(pending) && pending[next].marker == at:
				pc := &pending[next]
				next++
				cl.records = append(cl.records, BarrierRecord{Call: pc.call, Barriers: len(pc.req.Facts), FirstOp: len(cl.ops), Start: cl.buf.Len()})
				rec := &cl.records[len(cl.records)-1]
				w := append(cl.room(), words...) // the call's MARKER
				n := len(w)
				w, err := cl.pipe.Receive(w)
				if !cl.record(&pc.req, pc.call, w, n, rec, err) {
					cl.warns = cl.warns[:pc.warns]
					if pc.errNil {
						cl.err = nil
					}
					cl.patches, cl.assumptions = cl.patches[:pc.patches], cl.assumptions[:pc.assumptions]
					cl.dropStage()
					return
				}
			default:
				cl.put(append(cl.room(), words...))
				if pi < len(cl.patches) && cl.patches[pi].pos.Chunk == ci && cl.patches[pi].pos.Off < off {
					// The patches of a work packet, now at the buffer's Last.
					pos := cl.buf.Last()
					for ; pi < len(cl.patches) && cl.patches[pi].pos.Chunk == ci && cl.patches[pi].pos.Off < off; pi++ {
						cl.patches[pi].pos = cmdbuf.Pos{Chunk: pos.Chunk, Off: pos.Off + cl.patches[pi].pos.Off - at.Off}
					}
				}
			}
		}
	}
	cl.dropStage()
}

// dropStage forgets the stage and the pending calls: the list records
// into its own buffer again.
func (cl *CommandList) dropStage() {
	if cl.pipe != nil && cl.pipe.Len() > 0 {
		cl.pipe.Drop()
	}
	if cl.real != nil {
		cl.buf, cl.real = cl.real, nil
	}
	if cl.stg != nil {
		cl.stg.pending = cl.stg.pending[:0]
		stagings.Put(cl.stg)
		cl.stg = nil
	}
}
