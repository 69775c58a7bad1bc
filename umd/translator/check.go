package translator

import (
	"fmt"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
)

// Allowed reports whether a translator may emit op: the synchronisation
// packets and NOP. Work, markers, fences, chains and calls are ebref's.
func Allowed(op cmdbuf.Opcode) bool { return allowed[op] }

var allowed = [256]bool{cmdbuf.OpWait: true, cmdbuf.OpCache: true, cmdbuf.OpDecompress: true, cmdbuf.OpMetadataInit: true,
	cmdbuf.OpEventSignal: true, cmdbuf.OpEventWait: true, cmdbuf.OpNop: true}

// ReplyError is a reply that is not a valid translation of its request:
// the dword offset of the packet at fault and what is wrong.
type ReplyError struct {
	Dword int
	Msg   string
}

func (e *ReplyError) Error() string { return fmt.Sprintf("dword %d: %s", e.Dword, e.Msg) }

// Check checks a reply's packets against the request: every packet
// decodes and is Allowed; a DECOMPRESS or METADATA_INIT names a surface
// one of the call's texture records has, inside its data; an EVENT_SIGNAL
// signals the call's SplitEvent, and only when the call has split begins;
// an EVENT_WAIT waits for an event one of the call's split ends names.
// It allocates nothing on a valid reply.
func Check(req *Request, words []uint32) error {
	if err := req.CheckSize(words); err != nil {
		return err
	}
	for off := 0; off < len(words); {
		n, err := req.CheckPacket(words, off)
		if err != nil {
			return err
		}
		off += n
	}
	return nil
}

// CheckSize is Check's first step: the reply is within ReplyBudget.
func (req *Request) CheckSize(words []uint32) error {
	if len(words) <= minReplyBudget { // within any request's budget: no sum to make
		return nil
	}
	return req.checkSize(words)
}

// minReplyBudget is the least ReplyBudget of any request.
const minReplyBudget = min(MaxReplyDwords, 4096)

func (req *Request) checkSize(words []uint32) error {
	if b := req.ReplyBudget(); len(words) > b {
		return &ReplyError{Dword: b, Msg: fmt.Sprintf("the reply has %d dwords; a call of %d records, %d regions and %d aliased metadata ranges may have at most %d",
			len(words), len(req.Facts), len(req.Regions), len(req.AliasedMeta), b)}
	}
	return nil
}

// CheckPacket is Check's step for the packet at words[off]: it checks
// it against the request and returns its size in dwords, so a caller
// that reads the packets of a reply anyway (ebref rebuilding a
// BarrierRecord from them) checks it in the same pass: CheckSize, then
// CheckPacket at each packet in turn, is Check. It decodes no more of the
// packet than the check needs (cmdbuf.Valid), and allocates nothing on a
// valid one.
func (req *Request) CheckPacket(words []uint32, off int) (int, error) {
	h := cmdbuf.Header(words[off])
	// The opcode first: a packet ebref keeps is refused as that, not
	// for its fields.
	if op := h.Op(); !Allowed(op) {
		return 0, &ReplyError{Dword: off, Msg: fmt.Sprintf("%s (opcode 0x%02x) is not a translator's packet (WAIT, CACHE, DECOMPRESS, METADATA_INIT, EVENT_SIGNAL, EVENT_WAIT, NOP)", op, uint8(op))}
	}
	n := cmdbuf.Valid(words, off)
	if n == 0 {
		_, err := cmdbuf.Decode(words, off)
		return 0, &ReplyError{Dword: off, Msg: err.Error()}
	}
	op := h.Op()
	if op == cmdbuf.OpWait || op == cmdbuf.OpCache || op == cmdbuf.OpNop {
		return n, nil // nothing of the call's to name
	}
	switch p := (cmdbuf.Packet{Offset: off, Header: h, Payload: words[off+1 : off+n]}); op {
	case cmdbuf.OpDecompress:
		if msg := req.checkRegion(p.Decompress()); msg != "" {
			return 0, &ReplyError{Dword: off, Msg: "DECOMPRESS " + msg}
		}
	case cmdbuf.OpMetadataInit:
		if msg := req.checkRegion(p.MetadataInit()); msg != "" {
			return 0, &ReplyError{Dword: off, Msg: "METADATA_INIT " + msg}
		}
	case cmdbuf.OpEventSignal:
		if e := p.Event(); req.SplitEvent == 0 || e.ID != req.SplitEvent {
			return 0, &ReplyError{Dword: off, Msg: fmt.Sprintf("EVENT_SIGNAL of event %d; the call's split begins signal event %d (0: it has none)", e.ID, req.SplitEvent)}
		}
	case cmdbuf.OpEventWait:
		if e := p.Event(); !req.endsEvent(e.ID) {
			return 0, &ReplyError{Dword: off, Msg: fmt.Sprintf("EVENT_WAIT for event %d, which none of the call's split ends names", e.ID)}
		}
	}
	return n, nil
}

// ReplyBudget is the most dwords a reply to req may have: a few thousand,
// and 64 more for each record, surface region and aliased metadata range,
// so a list's packets grow with its calls as the reference's do, and a
// translator cannot fill memory with packets no call asked for
// (MaxReplyDwords bounds one reply as it is read).
func (req *Request) ReplyBudget() int {
	return min(MaxReplyDwords, 4096+64*(len(req.Facts)+len(req.Regions)+len(req.AliasedMeta)))
}

// checkRegion says what is wrong with a surface region ("" if nothing).
func (req *Request) checkRegion(r cmdbuf.SurfaceRegion) string {
	// Replies mostly name surfaces in the records' order: the search goes
	// on from the last one found (any record with the surface will do:
	// a surface is one resource's).
	for k := range req.Facts {
		i := (req.surfaceAt + k) % len(req.Facts)
		f := &req.Facts[i]
		if f.Surface == 0 || f.Surface != uint32(r.Surface) {
			continue
		}
		req.surfaceAt = i + 1
		size := f.Data.Hi - f.Data.Lo
		if r.Size == 0 || r.Offset > size || r.Size > size-r.Offset {
			return fmt.Sprintf("of surface %d bytes 0x%x+0x%x: the surface's data is 0x%x bytes", r.Surface, r.Offset, r.Size, size)
		}
		return ""
	}
	return fmt.Sprintf("names surface %d, which none of the call's textures has", r.Surface)
}

// endsEvent reports whether one of the call's split ends names event id.
func (req *Request) endsEvent(id uint32) bool {
	if id == 0 {
		return false
	}
	for i := range req.Facts {
		if req.Facts[i].EndEvent == id && req.syncBefore(i) == ddi.SyncSplit {
			return true
		}
	}
	return false
}

// syncBefore is record i's SyncBefore (a global, texture or buffer
// barrier's; none for a ranged one).
func (req *Request) syncBefore(i int) ddi.BarrierSync {
	var t ddi.BarrierType
	var g *ddi.GlobalBarrier
	if req.Entry == Entry0088 {
		b := req.Barrier0088(i)
		t, g = b.Type, b.Global()
	} else {
		b := req.Barrier(i)
		t, g = b.Type, b.Global()
	}
	if t == ddi.BarrierTypeRanged {
		return ddi.SyncNone
	}
	return g.SyncBefore
}
