package translator

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
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
	// Drop forgets the requests queued and not yet answered, and the
	// replies read and not yet received: nothing is in flight between
	// calls (Receive reads a write's replies before it returns).
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
// at ends[i]; next is the first not yet answered. The replies of the
// requests last sent are in got (words holds their dwords), taken in
// order from gi.
type pipeline struct {
	s     *session
	buf   []byte
	ends  []int
	next  int
	m     *queueMem
	words []uint32
	got   []answer
	gi    int
}

// answer is one request's reply, from a batch (gather): its dwords end
// at words[end]; ok is false when the copy was lost on it.
type answer struct {
	end int
	err error
	ok  bool
}

// queueMem is a queue's memory: a run has many short command lists, each
// queueing a moment, so their queues share it through a pool.
type queueMem struct {
	buf   []byte
	ends  []int
	words []uint32
	got   []answer
	wake  chan struct{}
}

var queueMems = sync.Pool{New: func() any { return &queueMem{wake: make(chan struct{}, 1)} }}

func (q *pipeline) Len() int { return len(q.ends) - q.next }

func (q *pipeline) Send(req *Request) bool {
	if q.next > 0 || q.gi < len(q.got) { // being answered: receive them all first
		return false
	}
	if q.m == nil { // the queue's memory, while it holds requests
		q.m = queueMems.Get().(*queueMem)
		q.buf, q.ends, q.words, q.got = q.m.buf[:0], q.m.ends[:0], q.m.words[:0], q.m.got[:0]
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
	for q.gi == len(q.got) { // none answered: send those not yet answered
		q.words, q.got, q.gi = q.words[:0], q.got[:0], 0
		q.s.p.gather(q)
	}
	a := q.got[q.gi]
	from := 0
	if q.gi > 0 {
		from = q.got[q.gi-1].end
	}
	dst = append(dst, q.words[from:a.end]...)
	q.gi++
	q.next++
	switch {
	case q.next == len(q.ends):
		q.reset()
	case !a.ok:
		// The copy was lost on this one: those after it go to another.
		q.words, q.got, q.gi = q.words[:0], q.got[:0], 0
	}
	return dst, a.err
}

func (q *pipeline) reset() {
	q.buf, q.ends, q.next = q.buf[:0], q.ends[:0], 0
	q.words, q.got, q.gi = q.words[:0], q.got[:0], 0
	if q.m != nil {
		q.m.buf, q.m.ends, q.m.words, q.m.got = q.buf, q.ends, q.words, q.got
		queueMems.Put(q.m)
		q.m, q.buf, q.ends, q.words, q.got = nil, nil, nil, nil, nil
	}
}

// Drop forgets the queue: nothing is in flight outside Receive.
func (q *pipeline) Drop() { q.reset() }

// gather sends q's unanswered requests with those of the other pipelines
// waiting at the same moment, in one write to one copy (more, one after
// the other, if they do not fit in one), and returns when q.got holds at
// least one reply, or none if q's requests must be sent again (the copy
// was lost on another pipeline's request before q's).
//
// Why: what an exchange costs is the kernel's, waking the translator and
// being woken (docs/translators.md "Speed"), about the same for one
// request or a hundred; cases run in parallel (hlk.Jobs) each wait for
// their own command lists, so their requests go together. The first
// pipeline to wait leads: it yields its P (runtime.Gosched) while others
// arrive, and writes when a yield brought no one new, that is when its P
// has nothing else to run and would otherwise sit idle; it then takes a
// copy, waiting for one if all are busy, and the lists that arrived
// meanwhile go too. No one waits for a timer, and a lone caller (ebref
// run) waits no longer than it did.
func (p *Process) gather(q *pipeline) {
	g := &p.gathering
	g.mu.Lock()
	g.forming = append(g.forming, q)
	if len(g.forming) > 1 { // another leads
		g.mu.Unlock()
		<-q.m.wake
		return
	}
	for n, yields := 0, 0; n != len(g.forming) && yields < maxGatherYields; yields++ {
		n = len(g.forming)
		g.mu.Unlock()
		runtime.Gosched()
		g.mu.Lock()
	}
	// A copy first: lists arriving while every copy is busy join this
	// write.
	g.mu.Unlock()
	r, err := p.acquire()
	g.mu.Lock()
	batch := g.forming
	g.forming, g.spare = g.spare[:0], nil // the next leader's
	g.mu.Unlock()
	p.sendBatch(r, err, batch)
	for _, m := range batch[1:] {
		m.m.wake <- struct{}{}
	}
	clear(batch)
	g.mu.Lock()
	if g.spare == nil {
		g.spare = batch[:0]
	}
	g.mu.Unlock()
}

// maxGatherYields bounds a leader's yields: on many CPUs pipelines could
// go on arriving.
const maxGatherYields = 8

// gathering is the pipelines waiting to be sent (Process.gather): the
// first of forming leads.
type gathering struct {
	mu      sync.Mutex
	forming []*pipeline
	spare   []*pipeline
}

// sendBatch sends the unanswered requests of the batch's pipelines to
// copy r (or answers each with err, acquire's) and reads the replies into
// each pipeline's got: in writes of at most PipelineBytes after the
// first pipeline's (writeBatch), so that a write never waits on a
// translator that is itself waiting to write replies ebref is not yet
// reading, each write's replies read before the next. When the copy is
// lost, the request it was lost on is answered with the error, and those
// after it, its pipeline's and the later pipelines', are left to be sent
// again.
func (p *Process) sendBatch(r *running, err error, batch []*pipeline) {
	if err != nil {
		for _, m := range batch {
			m.got = append(m.got, answer{err: err})
		}
		return
	}
	ok := true
	for len(batch) > 0 && ok {
		n := p.writeBatch(r, batch)
		ok = p.readBatch(r, batch[:n])
		batch = batch[n:]
	}
	p.release(r, ok)
}

// writeBatch writes the first of the batch's pipelines to copy r, and
// those after it while the write holds at most PipelineBytes, each after
// its profile's frame if the copy lacks it: how many it wrote.
func (p *Process) writeBatch(r *running, batch []*pipeline) int {
	r.buf, r.fresh = r.buf[:0], r.fresh[:0]
	n := len(batch)
	for i, m := range batch {
		at, fresh := len(r.buf), len(r.fresh)
		if id := m.s.id; !r.sent[id] && !slices.Contains(r.fresh, id) {
			r.buf = AppendProfile(r.buf, id, m.s.prof)
			r.fresh = append(r.fresh, id)
		}
		r.buf = append(r.buf, m.buf[m.start(m.next):]...)
		if i > 0 && len(r.buf) > PipelineBytes { // the rest go in another
			r.buf, r.fresh, n = r.buf[:at], r.fresh[:fresh], i
			break
		}
	}
	p.exchanges.Add(1)
	// The deadline runs from the write to the first answer, and then from
	// when ebref waits for each of the others (readBatch).
	r.timer.Reset(p.opts.Timeout)
	return n
}

// readBatch writes r.buf, the frames of the batch's pipelines
// (writeBatch), and reads their replies into each pipeline's got; false
// when the copy was lost.
func (p *Process) readBatch(r *running, batch []*pipeline) (ok bool) {
	armed := true
	arm := func() {
		if !armed {
			r.timer.Reset(p.opts.Timeout)
			armed = true
		}
	}
	defer func() {
		if armed {
			r.timer.Stop()
		}
	}()
	if _, err := r.in.Write(r.buf); err != nil {
		m := batch[0]
		m.got = append(m.got, answer{err: p.lostOne(batch, 0, m.next, p.lost(r, err, "the request could not be written: %v", err))})
		return false
	}
	for bi, m := range batch {
		if id := m.s.id; !r.sent[id] {
			if r.declares {
				arm()
				err := p.readPolicy(r, id, m.s.prof)
				if armed = false; !r.timer.Stop() && err == nil {
					err = p.lost(r, nil, "its policy came as the deadline passed")
				}
				if err != nil {
					r.stop() // lost, or at odds with the other copies
					m.got = append(m.got, answer{err: p.lostOne(batch, bi, m.next, err.(*Error))})
					return false
				}
			}
			r.sent[id] = true
		}
		for i := m.next; i < len(m.ends); i++ {
			arm()
			var err error
			m.words, err, ok = p.reply(r, m.words)
			if armed = false; !r.timer.Stop() && ok { // killed just as it replied: not used again
				ok = false
				go r.stop()
			}
			if !ok && err != nil {
				err = p.lostOne(batch, bi, i, err.(*Error))
			}
			m.got = append(m.got, answer{end: len(m.words), err: err, ok: ok})
			if !ok {
				return false
			}
		}
	}
	return true
}

// lostOne completes the error of a copy lost on request i of the
// batch's pipeline bi: the dump holds that request and every request
// written after it and not answered, its own list's and the later lists',
// each list's profile's frame before its first request, so that `ebref
// translator replay` sends them together again: a translator that holds
// its replies back may have failed on any of them.
func (p *Process) lostOne(batch []*pipeline, bi, i int, e *Error) *Error {
	m := batch[bi]
	own, others := len(m.ends)-i-1, 0
	var seen []uint32
	data := AppendProfile(nil, m.s.id, m.s.prof)
	data = append(data, m.buf[m.start(i):]...)
	seen = append(seen, m.s.id)
	for _, o := range batch[bi+1:] {
		if !slices.Contains(seen, o.s.id) {
			data = AppendProfile(data, o.s.id, o.s.prof)
			seen = append(seen, o.s.id)
		}
		data = append(data, o.buf[o.start(o.next):]...)
		others += len(o.ends) - o.next
	}
	switch {
	case others > 0:
		e.Msg += fmt.Sprintf(" (%d later calls were sent with it and not answered, %d of them from %d other command lists: a translator that holds its replies back may have failed on one of them; the file holds them all)",
			own+others, others, len(batch)-bi-1)
	case own > 0:
		e.Msg += fmt.Sprintf(" (%d later calls were sent with it and not answered: a translator that holds its replies back may have failed on one of them; the file holds them all)", own)
	}
	return p.dumped(e, data)
}

// SendTogether sends the requests queued on pipelines qs, which must be
// this process's, in one write, as command lists waiting at the same
// moment are sent (gather); each pipeline's replies are then received
// from it as always. `ebref translator replay` sends a dump's lists so.
func (p *Process) SendTogether(qs ...Pipeline) error {
	batch := make([]*pipeline, 0, len(qs))
	for i, q := range qs {
		pq, ok := q.(*pipeline)
		if !ok || pq.s.p != p {
			return fmt.Errorf("translator: pipeline %d is not one of translator %s's", i, p.name)
		}
		if pq.Len() > 0 && pq.gi == len(pq.got) { // requests, none answered
			batch = append(batch, pq)
		}
	}
	if len(batch) > 0 {
		r, err := p.acquire()
		p.sendBatch(r, err, batch)
	}
	return nil
}
