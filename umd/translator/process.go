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
	"strings"
	"sync"
	"time"

	"github.com/ebref/ebref/hwmodel"
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
}

// maxStartFailures is how many hellos in a row may fail before the
// translator is given up.
const maxStartFailures = 3

// Process is a translator in another process, spoken to over its standard
// input and output. It is an Opener; its translators share the process,
// one call at a time, and restart it after a crash or a timeout.
type Process struct {
	argv []string
	opts Options

	mu       sync.Mutex
	name     string
	run      *running
	ids      map[*hwmodel.Profile]uint32
	fails    int
	fatal    *Error
	buf      []byte
	dumps    int
	requests int
}

// running is one started translator process.
type running struct {
	cmd     *exec.Cmd
	in, out *os.File
	r       *bufio.Reader
	stderr  *tail
	sent    map[uint32]bool
	done    chan struct{}
	waitErr error
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
	p := &Process{argv: argv, opts: opts, name: filepath.Base(argv[0]), ids: map[*hwmodel.Profile]uint32{}}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.start(); err != nil {
		p.stop()
		return nil, err
	}
	return p, nil
}

// Name is the name the translator gave in its hello.
func (p *Process) Name() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.name
}

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
func (p *Process) Requests() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.requests
}

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
	return &session{p: p, prof: prof}, nil
}

// Close ends the translator: its input is closed, and it is killed if it
// has not exited a second later.
func (p *Process) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.run == nil {
		return nil
	}
	r := p.run
	r.in.Close()
	select {
	case <-r.done:
	case <-time.After(time.Second):
	}
	p.stop()
	return nil
}

type session struct {
	p    *Process
	prof *hwmodel.Profile
}

func (s *session) Translate(req *Request, dst []uint32) ([]uint32, error) {
	return s.p.translate(s.prof, req, dst)
}

func (p *Process) fail(kind ErrorKind, format string, args ...any) *Error {
	return &Error{Kind: kind, Translator: p.name, Msg: fmt.Sprintf(format, args...), Dword: -1}
}

// start starts the process and reads its hello.
func (p *Process) start() error {
	err := p.launch()
	if err == nil {
		p.fails = 0
		return nil
	}
	p.fails++
	var e *Error
	if !errors.As(err, &e) {
		e = p.fail(ErrStart, "%v", err)
	}
	e.Kind = ErrStart
	if p.fails >= maxStartFailures {
		e.Fatal = true
		e.Msg = fmt.Sprintf("could not be started %d times in a row; the last time: %s", p.fails, e.Msg)
		p.fatal = e
	}
	return e
}

func (p *Process) launch() error {
	inR, inW, err := os.Pipe()
	if err != nil {
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return err
	}
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	cmd.Stdin, cmd.Stdout = inR, outW
	t := &tail{log: p.opts.Log}
	cmd.Stderr = t
	if err := cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return p.fail(ErrStart, "%v", err)
	}
	inR.Close()
	outW.Close()
	r := &running{cmd: cmd, in: inW, out: outR, r: bufio.NewReaderSize(outR, 1<<16), stderr: t, sent: map[uint32]bool{}, done: make(chan struct{})}
	go func() { r.waitErr = cmd.Wait(); close(r.done) }()
	p.run = r
	deadline := time.Now().Add(p.opts.Timeout)
	inW.SetWriteDeadline(deadline)
	outR.SetReadDeadline(deadline)
	if _, err := inW.Write(AppendHello(nil)); err != nil {
		return p.lost(nil, "the hello could not be written: %v", err)
	}
	version, n, err := readHello(r.r, "translator")
	switch {
	case err != nil:
		var we *WireError
		if errors.As(err, &we) {
			return p.lost(nil, "%v; does the translator print to standard output?", err)
		}
		return p.lost(err, "the hello: %v", err)
	case version != Version:
		return p.lost(nil, "the translator speaks version %d; ebref speaks %d", version, Version)
	case n > MaxNameLen:
		return p.lost(nil, "a %d-byte name in the hello; at most %d", n, MaxNameLen)
	}
	name := make([]byte, (n+3)&^3)
	if _, err := io.ReadFull(r.r, name); err != nil {
		return p.lost(err, "the hello's name: %v", err)
	}
	if n > 0 {
		p.name = string(name[:n])
	}
	return nil
}

// lost ends the running process after a failure (cause: the read error,
// to tell a crash from a timeout) and returns the error describing it.
func (p *Process) lost(cause error, format string, args ...any) *Error {
	kind := ErrProtocol
	switch {
	case errors.Is(cause, os.ErrDeadlineExceeded):
		kind = ErrTimeout
		format += fmt.Sprintf(" (no reply within %s)", p.opts.Timeout)
	case cause != nil:
		kind = ErrCrash
	}
	e := p.fail(kind, format, args...)
	if r := p.run; r != nil {
		if kind == ErrCrash {
			select { // a crash: let it finish exiting, to say how
			case <-r.done:
			case <-time.After(time.Second):
			}
		}
		p.stop()
		if kind == ErrCrash {
			e.Msg += "; " + exitText(r.waitErr)
		}
		e.Stderr = r.stderr.lines()
	}
	return e
}

// stop kills the running process, if any, and waits for it.
func (p *Process) stop() {
	r := p.run
	if r == nil {
		return
	}
	p.run = nil
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
		return "it " + ee.ProcessState.String()
	}
	if err == nil {
		return "it exited with status 0"
	}
	return err.Error()
}

func (p *Process) translate(prof *hwmodel.Profile, req *Request, dst []uint32) ([]uint32, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fatal != nil {
		return dst, p.fatal
	}
	if p.run == nil {
		if err := p.start(); err != nil {
			return dst, err
		}
	}
	r := p.run
	id := p.ids[prof]
	req.Profile = id
	start := 0
	p.buf = p.buf[:0]
	if !r.sent[id] {
		p.buf = AppendProfile(p.buf, id, prof)
	}
	start = len(p.buf)
	p.buf = AppendRequest(p.buf, req)
	p.requests++
	deadline := time.Now().Add(p.opts.Timeout)
	r.in.SetWriteDeadline(deadline)
	r.out.SetReadDeadline(deadline)
	if _, err := r.in.Write(p.buf); err != nil {
		return dst, p.dumped(p.lost(err, "the request could not be written: %v", err), prof, id, start)
	}
	r.sent[id] = true
	op, size, err := readFrameHeader(r.r)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return dst, p.dumped(p.lost(err, "it closed its output without replying"), prof, id, start)
		}
		return dst, p.dumped(p.lost(err, "reading the reply: %v", err), prof, id, start)
	}
	if op != OpReply || size < ReplyHeaderSize || size > ReplyHeaderSize+4*MaxReplyDwords {
		head := le.AppendUint32(le.AppendUint32(nil, op), size)
		more, _ := r.r.Peek(min(r.r.Buffered(), 56))
		e := p.lost(nil, "the reply's frame is %q, not an OpReply of at most %d dwords; does the translator print to standard output?",
			bytes.Clone(append(head, more...)), MaxReplyDwords)
		return dst, p.dumped(e, prof, id, start)
	}
	var h [ReplyHeaderSize]byte
	if _, err := io.ReadFull(r.r, h[:]); err != nil {
		return dst, p.dumped(p.lost(err, "reading the reply: %v", err), prof, id, start)
	}
	status, n := le.Uint32(h[:]), le.Uint32(h[4:])
	body := size - ReplyHeaderSize
	switch {
	case status == ReplyPackets && body == 4*n:
		words := make([]byte, body) // bounded by MaxReplyDwords above
		if _, err := io.ReadFull(r.r, words); err != nil {
			return dst, p.dumped(p.lost(err, "reading the reply's %d dwords: %v", n, err), prof, id, start)
		}
		for i := 0; i < len(words); i += 4 {
			dst = append(dst, le.Uint32(words[i:]))
		}
		return dst, nil
	case status == ReplyRefusal && n <= MaxReasonLen && body == (n+3)&^3:
		reason := make([]byte, body)
		if _, err := io.ReadFull(r.r, reason); err != nil {
			return dst, p.dumped(p.lost(err, "reading the refusal: %v", err), prof, id, start)
		}
		e := p.fail(ErrRefused, "refused the call: %s", strings.ToValidUTF8(string(reason[:n]), "?"))
		return dst, e
	}
	e := p.lost(nil, "a reply of status %d, count %d in a %d-byte body (packets: status 0 and 4 bytes a dword; a refusal: status 1 and at most %d bytes, padded to 4)",
		status, n, body, MaxReasonLen)
	return dst, p.dumped(e, prof, id, start)
}

// dumped writes the request that failed (the profile frame and the
// request frame from p.buf[start:]) to a file `ebref translator replay`
// reads, and names it in e.
func (p *Process) dumped(e *Error, prof *hwmodel.Profile, id uint32, start int) *Error {
	dir := p.opts.DumpDir
	if dir == "" {
		dir = os.TempDir()
	}
	p.dumps++
	f, err := os.CreateTemp(dir, fmt.Sprintf("ebref-translator-%d-*.req", p.dumps))
	if err != nil {
		e.Msg += fmt.Sprintf("; the request could not be kept: %v", err)
		return e
	}
	data := AppendProfile(nil, id, prof)
	data = append(data, p.buf[start:]...)
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
	log  io.Writer
	buf  []byte
	last []string
}

const tailLines, tailLineLen = 8, 240

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.log != nil {
		t.log.Write(b)
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
	t.last = append(t.last, strings.ToValidUTF8(string(t.buf), "?"))
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
		out = append(out, strings.ToValidUTF8(string(t.buf), "?"))
	}
	return out
}
