package translator

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/internal/printable"
)

// ErrorKind says how a translator failed.
type ErrorKind uint8

// The kinds.
const (
	ErrRefused  ErrorKind = iota + 1 // it refused the call
	ErrCrash                         // it exited, or closed its output, while a call was open
	ErrTimeout                       // it did not reply within the deadline
	ErrProtocol                      // its bytes are not the protocol
	ErrReply                         // its reply is the protocol but not a valid translation of the call
	ErrStart                         // it could not be started or did not complete the hello
)

var errorKindNames = [...]string{"", "refused", "crash", "timeout", "protocol", "reply", "start"}

func (k ErrorKind) String() string {
	if int(k) < len(errorKindNames) {
		return errorKindNames[k]
	}
	return fmt.Sprintf("ErrorKind(%d)", k)
}

// Error is a translator's failure on a call. umd adds the list and call;
// the harness the case and profile.
type Error struct {
	Kind       ErrorKind
	Translator string
	Msg        string
	Dword      int      // the reply's dword at fault (ErrReply), -1 if none
	Call       int      // the Barrier call's ordinal (umd sets it), 0 if none
	Stderr     []string // its last lines on standard error
	Dump       string   // the file holding the request (ErrCrash, ErrTimeout, ErrProtocol)
	Fatal      bool     // it cannot be started: no later call will run
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "translator %s: %s", e.Translator, e.Msg)
	if e.Dword >= 0 {
		fmt.Fprintf(&b, " (reply dword %d)", e.Dword)
	}
	if e.Dump != "" {
		fmt.Fprintf(&b, "; the request is in %s (ebref translator replay %s -- COMMAND)", e.Dump, e.Dump)
	}
	if len(e.Stderr) > 0 {
		fmt.Fprintf(&b, "; its last standard error: %s", strings.Join(e.Stderr, " | "))
	}
	return b.String()
}

// Options configure a Process.
type Options struct {
	// Timeout is how long a reply may take (0: 5 s).
	Timeout time.Duration
	// DumpDir is where a request that crashed the translator is written
	// (empty: the system's temporary directory).
	DumpDir string
	// Log, if set, receives the translator's standard error as it comes.
	Log io.Writer
	// Instances is how many copies of the translator may run at once,
	// one exchange each (0: CopiesPerCPU a CPU, GOMAXPROCS CPUs, at most
	// MaxInstances). Copies are started as exchanges need them.
	Instances int
}

// MaxInstances bounds Options.Instances: each copy is a process of its
// own (one serving the reference, `ebref translator serve`, holds some
// 17 MB), so that a run's copies hold about a gigabyte at most. Callers
// beyond it wait for a copy.
const MaxInstances = 64

// JobsPerCPU is how many callers a CPU keeps busy when their calls wait
// for a translator in another process (Process.Jobs): through the driver
// (hlk/reference), the harness's jobs (hlk.Config.Jobs). The command
// lists of callers waiting at the same moment go to a copy together, one
// exchange for all (Process.gather); the more callers, the more go
// together, and a caller waiting leaves its P to another instead of to
// the garbage collector's idle mark worker. Twelve measured best: eight
// made 40 % more exchanges, sixteen cost ebref more than the exchanges
// saved (docs/translators.md "Speed").
const JobsPerCPU = 12

// CopiesPerCPU is the default of Options.Instances a CPU: how many
// exchanges may be in flight at once. Callers' requests go together, so
// a few copies serve many callers.
const CopiesPerCPU = 1

// maxStartFailures is how many hellos in a row may fail before the
// translator is given up.
const maxStartFailures = 3

// Process is a translator in other processes, spoken to over their
// standard input and output. It is an Opener: its translators share up to
// Options.Instances copies of the process, one call at a time each, and
// start a copy again after a crash or a timeout.
type Process struct {
	argv []string
	opts Options
	name string     // from the first hello
	log  *logWriter // Options.Log, shared by the copies (nil: none)
	// declares: the hello said every profile frame is answered with a
	// policy (HelloDeclaresPolicy); policies are the answers, by profile.
	declares bool

	mu       sync.Mutex
	asking   sync.Mutex // held by the caller asking a profile's policy (Open)
	idle     []*running
	live     int // copies started and not lost, idle or busy
	freed    *sync.Cond
	ids      map[*hwmodel.Profile]uint32
	fails    int
	fatal    *Error
	closed   bool
	requests atomic.Int64
	// exchanges counts the writes of requests, each answered before the
	// next write: one wake-up of each side, however many requests.
	exchanges atomic.Int64
	dumps     atomic.Int64
	policies  map[uint32]policyAnswer
	gathering gathering
}

type policyAnswer struct {
	p        Policy
	declared bool
}

// pipeEnd is ebref's end of a pipe to or from a translator.
type pipeEnd interface {
	io.Reader
	io.Writer
	io.Closer
}

// running is one copy of the translator.
type running struct {
	cmd     *exec.Cmd
	in, out pipeEnd
	r       *bufio.Reader
	stderr  *tail
	sent    map[uint32]bool
	done    chan struct{}
	waitErr error
	buf     []byte
	fresh   []uint32 // the profiles whose frames a batch writes (sendBatch)
	// declares: its hello declared policies (HelloDeclaresPolicy).
	declares bool
	// timer kills the process when an exchange outlives the deadline,
	// and sets expired.
	timer   *time.Timer
	expired atomic.Bool
}

// Start starts the translator argv and completes the hello, so a
// translator that cannot run is known at once.
func Start(argv []string, opts Options) (*Process, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("translator: no command")
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 5 * time.Second
	}
	switch {
	case opts.Instances > MaxInstances:
		return nil, fmt.Errorf("translator: %d copies asked; at most %d run at once (translator.MaxInstances)", opts.Instances, MaxInstances)
	case opts.Instances <= 0:
		opts.Instances = DefaultInstances()
	}
	p := &Process{argv: argv, opts: opts, name: filepath.Base(argv[0]), ids: map[*hwmodel.Profile]uint32{}}
	p.freed = sync.NewCond(&p.mu)
	if opts.Log != nil {
		p.log = &logWriter{w: opts.Log}
	}
	r, name, err := p.launch()
	if err != nil {
		err.(*Error).Kind = ErrStart
		return nil, err
	}
	p.declares, p.policies = r.declares, map[uint32]policyAnswer{}
	if name != "" {
		p.name = name
	}
	p.idle, p.live = []*running{r}, 1
	return p, nil
}

// DefaultInstances is Options.Instances's default: CopiesPerCPU a CPU
// (GOMAXPROCS), at most MaxInstances.
func DefaultInstances() int {
	return min(CopiesPerCPU*runtime.GOMAXPROCS(0), MaxInstances)
}

// Instances is how many copies of the translator may run at once
// (Options.Instances).
func (p *Process) Instances() int { return p.opts.Instances }

// Jobs is how many callers should use the translator at once to keep the
// CPUs busy: JobsPerCPU a CPU (GOMAXPROCS).
func (p *Process) Jobs() int { return JobsPerCPU * runtime.GOMAXPROCS(0) }

// Name is the name the translator gave in its hello.
func (p *Process) Name() string { return p.name }

// Fatal is the error that made the process give up, if any.
func (p *Process) Fatal() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fatal == nil {
		return nil
	}
	return p.fatal
}

// Requests is how many requests were sent.
func (p *Process) Requests() int { return int(p.requests.Load()) }

// Exchanges is how many times requests were written and their replies
// waited for: Requests when every call is sent alone, fewer when a
// Pipeline sends a command list's calls together.
func (p *Process) Exchanges() int { return int(p.exchanges.Load()) }

// Open returns the translator for profile prof.
func (p *Process) Open(prof *hwmodel.Profile) (Translator, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fatal != nil {
		return nil, p.fatal
	}
	if _, ok := p.ids[prof]; !ok {
		p.ids[prof] = uint32(len(p.ids) + 1)
	}
	s := &session{p: p, prof: prof, id: p.ids[prof]}
	if !p.declares {
		return s, nil
	}
	if _, asked := p.policies[s.id]; asked {
		return policySession{s}, nil
	}
	// One caller asks; the others opening the profile meanwhile wait for
	// its answer rather than send the profile again.
	p.mu.Unlock()
	p.asking.Lock()
	p.mu.Lock()
	_, asked := p.policies[s.id]
	p.mu.Unlock()
	var err error
	if !asked {
		err = p.askPolicy(prof, s.id)
	}
	p.asking.Unlock()
	p.mu.Lock()
	if err != nil {
		return nil, err
	}
	return policySession{s}, nil
}

// askPolicy sends a profile to a copy and keeps the policy it answers.
func (p *Process) askPolicy(prof *hwmodel.Profile, id uint32) error {
	r, err := p.acquire()
	if err != nil {
		return err
	}
	r.buf = AppendProfile(r.buf[:0], id, prof)
	r.timer.Reset(p.opts.Timeout)
	_, err = r.in.Write(r.buf)
	if err == nil {
		err = p.readPolicy(r, id, prof)
	} else {
		err = p.lost(r, err, "the profile could not be written: %v", err)
	}
	ok := r.timer.Stop() && err == nil
	if err != nil {
		r.stop()
	}
	r.sent[id] = ok // before release: the copy is another caller's after it
	p.release(r, ok)
	return err
}

// readPolicy reads the OpPolicy frame a copy answers profile id with; a
// copy's answer must be the first copy's.
func (p *Process) readPolicy(r *running, id uint32, prof *hwmodel.Profile) error {
	op, size, err := readFrameHeader(r.r)
	if err != nil {
		return p.lost(r, err, "reading the policy for profile %s: %v", prof.Name, err)
	}
	if op != OpPolicy || size != PolicySize {
		return p.lost(r, nil, "the answer to profile %s is opcode %d of %d bytes, not an OpPolicy of %d (the hello declared policies)", prof.Name, op, size, PolicySize)
	}
	var b [PolicySize]byte
	if _, err := io.ReadFull(r.r, b[:]); err != nil {
		return p.lost(r, err, "reading the policy: %v", err)
	}
	got, pol, declared, err := DecodePolicy(b[:])
	if err == nil && got != id {
		err = fmt.Errorf("a policy for profile %d answers profile %d", got, id)
	}
	if err == nil && declared {
		err = pol.Check(prof)
	}
	if err != nil {
		return p.lost(r, nil, "its policy for profile %s: %v", prof.Name, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if prev, ok := p.policies[id]; ok && prev != (policyAnswer{pol, declared}) {
		return p.fail(ErrProtocol, "two copies declare different policies for profile %s", prof.Name)
	}
	p.policies[id] = policyAnswer{pol, declared}
	return nil
}

// policySession is a session whose translator declared its policy.
type policySession struct{ *session }

func (s policySession) Policy() (Policy, bool) {
	s.p.mu.Lock()
	defer s.p.mu.Unlock()
	a := s.p.policies[s.id]
	return a.p, a.declared
}

// Close ends the translators: their input is closed, and each is killed if
// it has not exited a second later. Calls after Close fail.
func (p *Process) Close() error {
	p.mu.Lock()
	p.closed = true
	for p.live > len(p.idle) { // a call in progress ends within the deadline
		p.freed.Wait()
	}
	idle := p.idle
	p.idle, p.live = nil, 0
	p.freed.Broadcast()
	p.mu.Unlock()
	for _, r := range idle {
		r.in.Close()
	}
	for _, r := range idle {
		select {
		case <-r.done:
		case <-time.After(time.Second):
		}
		r.stop()
	}
	return nil
}

type session struct {
	p    *Process
	prof *hwmodel.Profile
	id   uint32
}

func (s *session) Translate(req *Request, dst []uint32) ([]uint32, error) {
	r, err := s.p.acquire()
	if err != nil {
		return dst, err
	}
	dst, err, ok := s.p.exchange(r, s.prof, s.id, req, dst)
	s.p.release(r, ok)
	return dst, err
}

func (p *Process) fail(kind ErrorKind, format string, args ...any) *Error {
	return &Error{Kind: kind, Translator: p.name, Msg: fmt.Sprintf(format, args...), Dword: -1}
}

// acquire takes an idle copy, starts one, or waits for one.
func (p *Process) acquire() (*running, error) {
	p.mu.Lock()
	for {
		switch {
		case p.fatal != nil:
			p.mu.Unlock()
			return nil, p.fatal
		case p.closed:
			p.mu.Unlock()
			return nil, p.fail(ErrStart, "the translator was closed")
		case len(p.idle) > 0:
			r := p.idle[len(p.idle)-1]
			p.idle = p.idle[:len(p.idle)-1]
			p.mu.Unlock()
			return r, nil
		case p.live < p.opts.Instances:
			p.live++
			p.mu.Unlock()
			r, _, err := p.launch()
			p.mu.Lock()
			if err == nil {
				p.fails = 0
				p.mu.Unlock()
				return r, nil
			}
			p.live--
			if p.fatal != nil { // given up meanwhile: one reason
				p.freed.Broadcast()
				p.mu.Unlock()
				return nil, p.fatal
			}
			p.fails++
			e := err.(*Error)
			e.Kind = ErrStart
			if p.fails >= maxStartFailures {
				e.Fatal = true
				e.Msg = fmt.Sprintf("could not be started %d times in a row; the last time: %s", p.fails, e.Msg)
				p.fatal = e
			}
			p.freed.Broadcast()
			p.mu.Unlock()
			return nil, e
		default:
			p.freed.Wait()
		}
	}
}

// release gives a copy back (ok) or counts it lost.
func (p *Process) release(r *running, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if ok && !p.closed {
		p.idle = append(p.idle, r)
	} else {
		p.live--
		if ok {
			go r.stop()
		}
	}
	p.freed.Signal()
}

// launch starts a copy and reads its hello: the copy and the name it gave.
func (p *Process) launch() (*running, string, error) {
	inR, inW, err := childPipe(false)
	if err != nil {
		return nil, "", p.fail(ErrStart, "%v", err)
	}
	outW, outR, err := childPipe(true)
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, "", p.fail(ErrStart, "%v", err)
	}
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	cmd.Stdin, cmd.Stdout = inR, outW
	t := &tail{log: p.log}
	cmd.Stderr = t
	cmd.WaitDelay = time.Second // a child of the translator holding its stderr does not hold Wait
	orphanProof(cmd)
	if err := cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, "", p.fail(ErrStart, "%v", err)
	}
	inR.Close()
	outW.Close()
	// The deadline is a timer that kills the process: its pipe then ends.
	r := &running{cmd: cmd, in: inW, out: outR, r: bufio.NewReaderSize(outR, 1<<16), stderr: t, sent: map[uint32]bool{}, done: make(chan struct{})}
	r.timer = time.AfterFunc(time.Hour, func() {
		r.expired.Store(true)
		cmd.Process.Kill()
	})
	go func() { r.waitErr = cmd.Wait(); close(r.done) }()
	r.timer.Reset(p.opts.Timeout)
	name, err := p.hello(r)
	if err == nil && r.declares != p.declares && p.policies != nil {
		err = p.lost(r, nil, "its hello declares policies %v; the first copy's said %v", r.declares, p.declares)
	}
	if !r.timer.Stop() && err == nil {
		err = p.lost(r, nil, "the hello came as the deadline passed")
	}
	if err != nil {
		return nil, "", err
	}
	return r, name, nil
}

// hello writes the host's hello and reads the translator's.
func (p *Process) hello(r *running) (string, error) {
	if _, err := r.in.Write(AppendHello(nil)); err != nil {
		return "", p.lost(r, err, "it stopped reading before its hello (%v)", err)
	}
	version, n, flags, err := readHello(r.r, "translator")
	r.declares = flags&HelloDeclaresPolicy != 0
	switch {
	case err != nil && !r.expired.Load() && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)):
		return "", p.lost(r, err, "it closed its output before its hello")
	case err != nil:
		var we *WireError
		if errors.As(err, &we) {
			return "", p.lost(r, nil, "%v; does the translator print to standard output?", err)
		}
		return "", p.lost(r, err, "the hello: %v", err)
	case version != Version:
		return "", p.lost(r, nil, "the translator speaks version %d; ebref speaks %d", version, Version)
	case n > MaxNameLen:
		return "", p.lost(r, nil, "a %d-byte name in the hello; at most %d", n, MaxNameLen)
	}
	name := make([]byte, (n+3)&^3)
	if _, err := io.ReadFull(r.r, name); err != nil {
		return "", p.lost(r, err, "the hello's name: %v", err)
	}
	return string(name[:n]), nil
}

// lost ends a copy after a failure (cause: the read or write error, to
// tell a crash from a protocol error) and returns the error describing it.
func (p *Process) lost(r *running, cause error, format string, args ...any) *Error {
	kind := ErrProtocol
	switch {
	case r.expired.Load():
		kind = ErrTimeout
		format += fmt.Sprintf(" (no reply within %s; it was killed)", p.opts.Timeout)
	case cause != nil:
		kind = ErrCrash
	}
	e := p.fail(kind, format, args...)
	if kind == ErrCrash {
		select { // a crash: let it finish exiting, to say how
		case <-r.done:
		case <-time.After(time.Second):
		}
	}
	r.stop()
	if kind == ErrCrash {
		e.Msg += "; " + exitText(r.waitErr)
	}
	e.Stderr = r.stderr.lines()
	return e
}

// stop kills the copy, if it still runs, and waits for it.
func (r *running) stop() {
	r.timer.Stop()
	r.in.Close()
	select {
	case <-r.done:
	default:
		r.cmd.Process.Kill()
		<-r.done
	}
	r.out.Close()
}

func exitText(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return "it ended with " + ee.ProcessState.String() // "exit status 3", "signal: killed"
	}
	if err == nil {
		return "it exited with status 0"
	}
	return err.Error()
}

// exchange sends one request to copy r and reads its reply; ok is false
// when the copy is lost.
func (p *Process) exchange(r *running, prof *hwmodel.Profile, id uint32, req *Request, dst []uint32) (_ []uint32, _ error, ok bool) {
	req.Profile = id
	r.buf = r.buf[:0]
	if !r.sent[id] {
		r.buf = AppendProfile(r.buf, id, prof)
	}
	start := len(r.buf)
	r.buf = AppendRequest(r.buf, req)
	p.requests.Add(1)
	return p.send(r, prof, id, r.buf, r.buf[start:], dst)
}

// send writes frames (the profile's frame, if the copy lacks it, then
// requests) to copy r, reads the policy a declaring copy answers a
// profile with, and then the reply to the first request. unanswered are
// the frames of the requests not yet answered, the first one's first: the
// dump, should it fail. The copy's timer runs from the
// write to the reply, so a translator that stops reading is a Timeout too.
func (p *Process) send(r *running, prof *hwmodel.Profile, id uint32, frames, unanswered []byte, dst []uint32) (_ []uint32, _ error, ok bool) {
	p.exchanges.Add(1)
	r.timer.Reset(p.opts.Timeout)
	defer func() {
		if !r.timer.Stop() && ok { // killed just as it replied: not used again
			ok = false
			go r.stop()
		}
	}()
	if _, err := r.in.Write(frames); err != nil {
		return dst, p.dumped(p.lost(r, err, "the request could not be written: %v", err), dumpOf(prof, id, unanswered)), false
	}
	if !r.sent[id] && r.declares {
		if err := p.readPolicy(r, id, prof); err != nil {
			r.stop() // lost, or at odds with the other copies
			return dst, p.dumped(err.(*Error), dumpOf(prof, id, unanswered)), false
		}
	}
	r.sent[id] = true
	dst, err, ok := p.reply(r, dst)
	if !ok {
		err = p.dumped(err.(*Error), dumpOf(prof, id, unanswered))
	}
	return dst, err, ok
}

// reply reads the reply to copy r's first unanswered request; ok is false
// when the copy is lost (err is then the *Error that says why).
func (p *Process) reply(r *running, dst []uint32) (_ []uint32, _ error, ok bool) {
	lose := func(cause error, format string, args ...any) ([]uint32, error, bool) {
		return dst, p.lost(r, cause, format, args...), false
	}
	op, size, err := readFrameHeader(r.r)
	switch {
	case err != nil && r.expired.Load():
		return lose(err, "it did not reply")
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return lose(err, "it closed its output without replying")
	case err != nil:
		return lose(err, "reading the reply: %v", err)
	}
	if op != OpReply || size < ReplyHeaderSize || size > ReplyHeaderSize+4*MaxReplyDwords {
		head := le.AppendUint32(le.AppendUint32(nil, op), size)
		more, _ := r.r.Peek(min(r.r.Buffered(), 56))
		return lose(nil, "the reply's frame is %q, not an OpReply of at most %d dwords; does the translator print to standard output?",
			bytes.Clone(append(head, more...)), MaxReplyDwords)
	}
	h, err := peekFull(r.r, ReplyHeaderSize)
	if err != nil {
		return lose(err, "reading the reply: %v", err)
	}
	status, n := le.Uint32(h), le.Uint32(h[4:])
	r.r.Discard(ReplyHeaderSize)
	body := size - ReplyHeaderSize
	switch {
	case status == ReplyPackets && body == 4*n:
		for i := uint32(0); i < n; i++ { // bounded by MaxReplyDwords above
			b, err := r.r.Peek(4)
			if err != nil {
				return lose(err, "reading the reply's %d dwords: %v", n, err)
			}
			dst = append(dst, le.Uint32(b))
			r.r.Discard(4)
		}
		return dst, nil, true
	case status == ReplyRefusal && n <= MaxReasonLen && body == (n+3)&^3:
		reason := make([]byte, body)
		if _, err := io.ReadFull(r.r, reason); err != nil {
			return lose(err, "reading the refusal: %v", err)
		}
		return dst, p.fail(ErrRefused, "refused the call: %s", strings.ToValidUTF8(string(reason[:n]), "?")), true
	}
	return lose(nil, "a reply of status %d, count %d in a %d-byte body (packets: status 0 and 4 bytes a dword; a refusal: status 1 and at most %d bytes, padded to 4)",
		status, n, body, MaxReasonLen)
}

// dumpOf is a dump of requests of one profile: its frame, then theirs.
func dumpOf(prof *hwmodel.Profile, id uint32, frames []byte) []byte {
	return append(AppendProfile(nil, id, prof), frames...)
}

// dumped writes data, the request that failed and the requests sent
// after it and not yet answered, each profile's frame before its first
// request (dumpOf, lostOne), to a file `ebref translator replay` reads,
// and names it in e.
func (p *Process) dumped(e *Error, data []byte) *Error {
	dir := p.opts.DumpDir
	if dir == "" {
		dir = os.TempDir()
	}
	f, err := os.CreateTemp(dir, fmt.Sprintf("ebref-translator-%d-*.req", p.dumps.Add(1)))
	if err != nil {
		e.Msg += fmt.Sprintf("; the request could not be kept: %v", err)
		return e
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		e.Msg += fmt.Sprintf("; the request could not be kept: %v", werr)
		os.Remove(f.Name())
		return e
	}
	e.Dump = f.Name()
	return e
}

// tail keeps the last lines a process wrote to standard error, and
// passes everything on to log.
type tail struct {
	mu   sync.Mutex
	log  *logWriter
	buf  []byte
	last []string
}

const tailLines, tailLineLen = 8, 240

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.log != nil {
		t.log.write(b)
	}
	for _, c := range b {
		if c == '\n' {
			t.push()
			continue
		}
		if len(t.buf) < tailLineLen {
			t.buf = append(t.buf, c)
		}
	}
	return len(b), nil
}

func (t *tail) push() {
	t.last = append(t.last, printable.String(string(t.buf)))
	if len(t.last) > tailLines {
		t.last = t.last[1:]
	}
	t.buf = t.buf[:0]
}

func (t *tail) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.last...)
	if len(t.buf) > 0 {
		out = append(out, printable.String(string(t.buf)))
	}
	return out
}

// logWriter passes every copy's standard error on to Options.Log, one
// write at a time, and keeps the first error writing it: after that it
// writes nothing, and LogErr says why.
type logWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (l *logWriter) write(b []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		_, l.err = l.w.Write(b)
	}
}

// LogErr is the first error writing the translator's standard error to
// Options.Log, if any: a log that lost lines is not a log that succeeded.
func (p *Process) LogErr() error {
	if p.log == nil {
		return nil
	}
	p.log.mu.Lock()
	defer p.log.mu.Unlock()
	return p.log.err
}
