package umd

import (
	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/umd/translator"
)

// Pipelined translation (docs/translators.md "Pipelining"). When the
// device's translator can take a list's requests ahead of their replies
// (a translator.Pipeliner: one in another process), a Barrier call is
// validated, tracked and its request sent as always, but its packets are
// recorded later: when the list's packets are needed (Close, Records,
// Buffer, SurfaceOps), or when the queue is full. Until then the list
// records into its stage: the call's MARKER, then every later command's
// packets, in segments as put added them. collect reads the replies in
// order and records stage and replies into the buffer as they would have
// been recorded call by call: the same packets, chunks, records and
// surface operations, and a failure stops the list at the call that
// failed, as if nothing after it had been recorded.
//
// The reference (umd.Reference) and any translator in process are no
// Pipeliner: their calls take translate's synchronous path.

// pendingCall is a Barrier call whose reply is not yet read: its request
// (the list takes a spare one for the next call), a copy of its records,
// and what the list held when it was made, to undo what later commands
// added should it fail.
type pendingCall struct {
	call        int
	req         translator.Request
	recs        []byte
	warns       int
	errNil      bool
	patches     int
	assumptions int
}

// stageSeg is a segment of the stage: the packets one put added, ending
// at end; call, if not 0, is 1 + the index in pending of the Barrier call
// whose MARKER it is, whose reply follows it.
type stageSeg struct {
	end, call int
}

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
	if len(cl.pending) < cap(cl.pending) {
		cl.pending = cl.pending[:len(cl.pending)+1]
	} else {
		cl.pending = append(cl.pending, pendingCall{})
	}
	pc := &cl.pending[len(cl.pending)-1]
	pc.req, cl.req = cl.req, pc.req
	pc.recs = append(pc.recs[:0], pc.req.Records...) // the caller's memory
	pc.req.Records = pc.recs
	pc.call, pc.warns, pc.errNil = call, len(cl.warns), cl.err == nil
	pc.patches, pc.assumptions = len(cl.patches), len(cl.assumptions)
	if !cl.staging {
		cl.staging, cl.stagedPatches = true, len(cl.patches)
	}
	cl.stagePut(cl.appendMarker(cl.stageRoom(), "Barrier"), len(cl.pending))
}

// stageRoom is the stage's free room, as room is the buffer's.
func (cl *CommandList) stageRoom() []uint32 {
	if cap(cl.stage)-len(cl.stage) < minRoom {
		cl.stage = append(cl.stage, make([]uint32, minRoom)...)[:len(cl.stage)]
	}
	return cl.stage[len(cl.stage):]
}

// stagePut adds words, from stageRoom or elsewhere, to the stage as a
// segment (call: the pending call whose MARKER they are, or 0).
func (cl *CommandList) stagePut(words []uint32, call int) {
	n := len(cl.stage)
	if len(words) > 0 && cap(cl.stage) > n && &cl.stage[:n+1][n] == &words[0] {
		cl.stage = cl.stage[:n+len(words)]
	} else {
		cl.stage = append(cl.stage, words...)
	}
	cl.segs = append(cl.segs, stageSeg{end: len(cl.stage), call: call})
}

// last is where the last packet put added begins: in the buffer, or while
// the list stages, at dword Off of the stage (Chunk -1), which collect
// turns into the buffer's position.
func (cl *CommandList) last() cmdbuf.Pos {
	if !cl.staging {
		return cl.buf.Last()
	}
	return cmdbuf.Pos{Chunk: -1, Off: lastPacket(cl.stage, cl.segStart(len(cl.segs)-1))}
}

// segStart is where segment i begins in the stage.
func (cl *CommandList) segStart(i int) int {
	if i == 0 {
		return 0
	}
	return cl.segs[i-1].end
}

// lastPacket is where the last packet of stage[from:] begins.
func lastPacket(stage []uint32, from int) int {
	at := from
	for off := from; off < len(stage); off += 1 + cmdbuf.Header(stage[off]).Len() {
		at = off
	}
	return at
}

// collect reads the replies of the list's pending calls and records the
// stage into the buffer, each reply after its call's MARKER. At the first
// call that fails, the list stops as it would have there: what later
// commands recorded is dropped, and the messages and patches they added.
func (cl *CommandList) collect() {
	if !cl.staging {
		return
	}
	cl.staging = false
	stage, segs := cl.stage, cl.segs
	pi := cl.stagedPatches
	for i, s := range segs {
		words := stage[cl.segStart(i):s.end]
		if s.call == 0 {
			cl.put(append(cl.room(), words...))
			if pi < len(cl.patches) && cl.patches[pi].pos.Chunk < 0 {
				// The patches of a work packet: it is the segment's
				// last, now at the buffer's Last.
				at, pos := lastPacket(stage[:s.end], cl.segStart(i)), cl.buf.Last()
				for ; pi < len(cl.patches) && cl.patches[pi].pos.Chunk < 0 && cl.patches[pi].pos.Off < s.end; pi++ {
					cl.patches[pi].pos = cmdbuf.Pos{Chunk: pos.Chunk, Off: pos.Off + cl.patches[pi].pos.Off - at}
				}
			}
			continue
		}
		pc := &cl.pending[s.call-1]
		rec := BarrierRecord{Call: pc.call, Barriers: len(pc.req.Facts), FirstOp: len(cl.ops), Start: cl.buf.Len()}
		w := append(cl.room(), words...) // the call's MARKER
		at := len(w)
		w, err := cl.pipe.Receive(w)
		if !cl.record(&pc.req, pc.call, w, at, &rec, err) {
			cl.pipe.Drop()
			cl.warns = cl.warns[:pc.warns]
			if pc.errNil {
				cl.err = nil
			}
			cl.patches, cl.assumptions = cl.patches[:pc.patches], cl.assumptions[:pc.assumptions]
			break
		}
	}
	cl.dropStage()
}

// dropStage forgets the stage and the pending calls.
func (cl *CommandList) dropStage() {
	if cl.pipe != nil && cl.pipe.Len() > 0 {
		cl.pipe.Drop()
	}
	cl.staging = false
	cl.stage, cl.segs, cl.pending = cl.stage[:0], cl.segs[:0], cl.pending[:0]
}
