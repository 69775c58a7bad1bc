package translator

import (
	"errors"
	"fmt"
	"sync"
)

// A Pipeliner is a Translator that can take a command list's requests
// ahead of their replies: a Process's translators are. A translator is
// stateless, so the calls of a list can be sent together when the list's
// packets are needed, and answered in one exchange instead of one each
// (docs/translators.md "Pipelining").
type Pipeliner interface {
	Translator
	// Pipeline begins a queue of requests, used by one goroutine at a
	// time.
	Pipeline() Pipeline
}

// A Pipeline holds requests until their replies are asked for. Replies
// come in the order the requests were sent.
type Pipeline interface {
	// Send queues a copy of req's frame (req may change afterwards). It
	// reports false, queueing nothing, when the queue is full: Receive
	// the replies first. An empty queue takes any request.
	Send(req *Request) bool
	// Receive appends the reply to the first request queued and not yet
	// answered to dst, as Translator.Translate does; the first Receive
	// after Sends writes every queued request at once.
	Receive(dst []uint32) ([]uint32, error)
	// Len is how many requests are queued and not yet answered.
	Len() int
	// Drop forgets the requests queued and not yet answered (their
	// replies, if they were sent, are read and discarded).
	Drop()
}

// The bounds of a pipeline's queue: the bytes of the requests' frames,
// and their number. PipelineBytes, with a profile frame of a few KiB, is
// less than a pipe holds (64 KiB on Linux), so writing a queue never
// waits on a translator that is itself waiting to write a reply ebref is
// not yet reading.
const (
	PipelineBytes = 32 << 10
	PipelineCalls = 256
)

// Pipeline is the session's queue of requests (Pipeliner).
func (s *session) Pipeline() Pipeline { return &pipeline{s: s} }

// pipeline queues a session's requests: their frames in buf, each ending
// at ends[i]; next is the first not yet answered; r the copy answering
// them, from the first Receive until the last reply is read.
type pipeline struct {
	s     *session
	buf   []byte
	ends  []int
	next  int
	r     *running
	spare []uint32 // Drop's replies
	m     *queueMem
}

// queueMem is a queue's memory: a run has many short command lists, each
// queueing a moment, so their queues share it through a pool.
type queueMem struct {
	buf  []byte
	ends []int
}

var queueMems = sync.Pool{New: func() any { return new(queueMem) }}

func (q *pipeline) Len() int { return len(q.ends) - q.next }

func (q *pipeline) Send(req *Request) bool {
	if q.r != nil || q.next > 0 { // being answered: receive them all first
		return false
	}
	if q.m == nil { // the queue's memory, while it holds requests
		q.m = queueMems.Get().(*queueMem)
		q.buf, q.ends = q.m.buf[:0], q.m.ends[:0]
	}
	req.Profile = q.s.id
	start := len(q.buf)
	q.buf = AppendRequest(q.buf, req)
	if len(q.ends) > 0 && (len(q.buf) > PipelineBytes || len(q.ends) >= PipelineCalls) {
		q.buf = q.buf[:start]
		return false
	}
	q.ends = append(q.ends, len(q.buf))
	q.s.p.requests.Add(1)
	return true
}

// start is where request i's frame begins in buf.
func (q *pipeline) start(i int) int {
	if i == 0 {
		return 0
	}
	return q.ends[i-1]
}

func (q *pipeline) Receive(dst []uint32) ([]uint32, error) {
	if q.next >= len(q.ends) {
		return dst, errors.New("translator: a pipeline's Receive without a request")
	}
	p, s := q.s.p, q.s
	// A failure is the first unanswered request's, and the dump holds it
	// and those after it: a translator that buffers its replies may have
	// failed on a later one.
	unanswered := q.buf[q.start(q.next):]
	var err error
	ok := false
	if q.r == nil {
		// Write every request not yet answered at once, after the
		// profile's frame if this copy lacks it, and read the first reply.
		q.r, err = p.acquire()
		if err == nil {
			frames := q.buf[q.start(q.next):]
			if !q.r.sent[s.id] {
				q.r.buf = append(AppendProfile(q.r.buf[:0], s.id, s.prof), frames...)
				frames = q.r.buf
			}
			dst, err, ok = p.send(q.r, s.prof, s.id, frames, unanswered, dst)
		}
	} else {
		// The deadline is each reply's, from when ebref waits for it.
		r := q.r
		r.timer.Reset(p.opts.Timeout)
		dst, err, ok = p.reply(r, dst)
		if !r.timer.Stop() && ok { // killed just as it replied: not used again
			ok = false
			go r.stop()
		}
		if !ok && err != nil {
			err = p.dumped(err.(*Error), s.prof, s.id, unanswered)
		}
	}
	if te, isTE := err.(*Error); !ok && isTE && q.Len() > 1 {
		te.Msg += fmt.Sprintf(" (%d later calls were sent with it and not answered: a translator that holds its replies back may have failed on one of them; the file holds them all)",
			q.Len()-1)
	}
	q.next++
	switch {
	case !ok:
		// The copy is lost (or none could be had): the requests after
		// this one go to another, from the start.
		if q.r != nil {
			p.release(q.r, false)
			q.r = nil
		}
		base := q.start(q.next)
		q.buf = q.buf[:copy(q.buf, q.buf[base:])]
		q.ends = q.ends[:copy(q.ends, q.ends[q.next:])]
		for i := range q.ends {
			q.ends[i] -= base
		}
		q.next = 0
	case q.next == len(q.ends):
		p.release(q.r, true)
		q.r = nil
		q.reset()
	}
	return dst, err
}

func (q *pipeline) reset() {
	q.buf, q.ends, q.next = q.buf[:0], q.ends[:0], 0
	if q.m != nil {
		q.m.buf, q.m.ends = q.buf, q.ends
		queueMems.Put(q.m)
		q.m, q.buf, q.ends = nil, nil, nil
	}
}

func (q *pipeline) Drop() {
	for q.r != nil && q.Len() > 0 { // sent: read the replies, so the copy can serve again
		q.spare, _ = q.Receive(q.spare[:0])
	}
	q.reset()
}
