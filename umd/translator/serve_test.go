package translator_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hlk/reference"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/umd"
	"github.com/ebref/ebref/umd/translator"
)

// A recorded session is what a host sends a served translator, and what
// the translator must answer, byte for byte: the requests a run of some
// suites makes, each answered in process by the reference.
type recorded struct {
	// in is the host's side: its hello, then the frames, profiles before
	// the first request naming them.
	in []byte
	// chunks are where in the host writes: a command list's requests go
	// together (as Pipeline sends them), so Serve flushes at each chunk's
	// end.
	chunks []int
	// outChunks are where in out the answers to each chunk end.
	outChunks []int
	// out is the translator's side after its hello: the policy frames
	// and replies, in order.
	out      []byte
	requests int
}

// recorder is an Opener whose translators are the reference's, and that
// writes down each request and the reply the reference gives it.
type recorder struct {
	mu       sync.Mutex
	rec      *recorded
	ids      map[string]uint32
	lastCall uint32
}

func (rc *recorder) Name() string { return "recorder" }

func (rc *recorder) Open(p *hwmodel.Profile) (translator.Translator, error) {
	return &recording{rc: rc, prof: p, ref: umd.NewReference(p)}, nil
}

type recording struct {
	rc   *recorder
	prof *hwmodel.Profile
	ref  *umd.Reference
}

func (r *recording) Translate(req *translator.Request, dst []uint32) ([]uint32, error) {
	rc := r.rc
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rec := rc.rec
	if req.Call <= rc.lastCall { // a new command list: a new write
		rec.chunks = append(rec.chunks, len(rec.in))
		rec.outChunks = append(rec.outChunks, len(rec.out))
	}
	rc.lastCall = req.Call
	id, ok := rc.ids[r.prof.Name]
	if !ok {
		id = uint32(len(rc.ids) + 1)
		rc.ids[r.prof.Name] = id
		rec.in = translator.AppendProfile(rec.in, id, r.prof)
		// The reference declares no policy of its own (Serve's answer for
		// a translator that is not a Policer).
		rec.out = translator.AppendPolicy(rec.out, id, translator.Policy{}, false)
	}
	sent := *req
	sent.Profile = id
	rec.in = translator.AppendRequest(rec.in, &sent)
	rec.requests++
	n := len(dst)
	dst, err := r.ref.Translate(req, dst)
	if err != nil {
		rec.out = translator.AppendRefusal(rec.out, err.Error())
	} else {
		rec.out = translator.AppendReply(rec.out, dst[n:])
	}
	return dst, err
}

// record runs the named suites on one profile, in one job, through a
// recorder.
func record(tb testing.TB, only []string, profile string) *recorded {
	rc := &recorder{rec: &recorded{in: translator.AppendHello(nil)}, ids: map[string]uint32{}}
	execute(tb, hlk.Config{Only: only, Profiles: []string{profile}, Driver: reference.WithTranslator(rc), AnyCost: true, Jobs: 1})
	rc.rec.chunks = append(rc.rec.chunks, len(rc.rec.in))
	rc.rec.outChunks = append(rc.rec.outChunks, len(rc.rec.out))
	require.NotZero(tb, rc.rec.requests)
	return rc.rec
}

var le = binary.LittleEndian

var (
	recordMu   sync.Mutex
	recordings = map[string]*recorded{}
)

// recording is the named suites (all of them for nil) on the discrete
// profile, recorded once per test binary.
func recordingOf(tb testing.TB, only ...string) *recorded {
	recordMu.Lock()
	defer recordMu.Unlock()
	key := strings.Join(only, ",")
	if rec := recordings[key]; rec != nil {
		return rec
	}
	rec := record(tb, only, "discrete")
	recordings[key] = rec
	return rec
}

// testSuites are the suites the tests record: barriers of every kind,
// legacy transitions, and writes and reads.
var testSuites = []string{"barriers", "legacy", "write-read"}

// chunkReader gives the host's bytes a write at a time, as a pipe
// would to a translator that waits for each.
type chunkReader struct {
	b      []byte
	chunks []int
	off, c int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if r.off == len(r.b) {
		return 0, io.EOF
	}
	for r.c < len(r.chunks) && r.chunks[r.c] <= r.off {
		r.c++
	}
	end := len(r.b)
	if r.c < len(r.chunks) {
		end = r.chunks[r.c]
	}
	n := copy(p, r.b[r.off:end])
	r.off += n
	return n, nil
}

func (r *chunkReader) reset(b []byte, chunks []int) { *r = chunkReader{b: b, chunks: chunks} }

// countWriter counts what it is given, and its writes.
type countWriter struct{ n, writes int }

func (w *countWriter) Write(p []byte) (int, error) { w.n += len(p); w.writes++; return len(p), nil }

func serveRecorded(tb testing.TB, in io.Reader, out io.Writer) {
	if err := translator.Serve(in, out, "ebref-reference", umd.ReferenceOpener{}.Open); err != nil {
		tb.Fatal(err)
	}
}

// TestServeAnswersAsTheReference: Serve answers a recorded run's requests
// with exactly the bytes the reference's replies make in process (after
// its hello), written once a command list's requests are answered.
func TestServeAnswersAsTheReference(t *testing.T) {
	rec := recordingOf(t, testSuites...)
	var out bytes.Buffer
	serveRecorded(t, &chunkReader{b: rec.in, chunks: rec.chunks}, &out)
	hello := out.Next(translator.HelloSize)
	require.Len(t, hello, translator.HelloSize)
	out.Next((int(le.Uint32(hello[8:])) + 3) &^ 3) // the name, padded
	require.True(t, bytes.Equal(rec.out, out.Bytes()), "Serve's replies differ from the reference's in process (%d bytes against %d)", out.Len(), len(rec.out))
	t.Logf("%d requests in %d writes, %d bytes of replies", rec.requests, len(rec.chunks), len(rec.out))
}

// BenchmarkServe is Serve's cost per request: a recorded run's requests
// (the default suites on the discrete profile, a fifth of the default
// run's, the host's writes a command list at a time) served from memory, without the pipe's
// system calls (BenchmarkRoundTrip has those). An op is one request;
// the session's set-up (hello, profile, buffers) is spread over them.
func BenchmarkServe(b *testing.B) {
	rec := recordingOf(b)
	var in chunkReader
	var out countWriter
	b.ReportAllocs()
	b.SetBytes(int64(len(rec.in)))
	sessions := 0
	for b.Loop() {
		in.reset(rec.in, rec.chunks)
		serveRecorded(b, &in, &out)
		sessions++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(sessions*rec.requests), "ns/request")
	b.ReportMetric(float64(out.writes)/float64(sessions), "writes/session")
	b.ReportMetric(float64(rec.requests), "requests/session")
}

// TestServeAllocatesNothingPerRequest: once a session has its profile and
// its buffers, a request costs Serve no allocation: a session of the
// recorded requests twice over allocates what one of them once does.
func TestServeAllocatesNothingPerRequest(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	rec := recordingOf(t, testSuites...)
	// The requests again, without the profile frames: a written chunk
	// each.
	twice := append([]byte(nil), rec.in...)
	chunks2 := append([]int(nil), rec.chunks...)
	for off, c := translator.HelloSize, 0; off < len(rec.in); {
		op, size := le.Uint32(rec.in[off:]), le.Uint32(rec.in[off+4:])
		end := off + translator.FrameHeaderSize + int(size)
		if op == translator.OpRequest {
			twice = append(twice, rec.in[off:end]...)
		}
		if off = end; off == rec.chunks[c] {
			chunks2 = append(chunks2, len(twice))
			c++
		}
	}
	var in chunkReader
	allocs := func(b []byte, chunks []int) float64 {
		return testing.AllocsPerRun(5, func() {
			in.reset(b, chunks)
			serveRecorded(t, &in, io.Discard)
		})
	}
	once, two := allocs(rec.in, rec.chunks), allocs(twice, chunks2)
	t.Logf("a session of %d requests: %.0f allocations; of %d: %.0f", rec.requests, once, 2*rec.requests, two)
	if two > once {
		t.Errorf("%.0f allocations for %d requests more: %.3f a request", two-once, rec.requests, (two-once)/float64(rec.requests))
	}
}

// BenchmarkServeOverPipe is a recorded run's exchanges (the default
// suites on the discrete profile) with the reference served by another
// process (this test binary, re-executed) over pipes: each command list's
// requests written at once, and their replies read, as a host does. An op
// is one exchange; translator-cpu-ns/op is what the served copy spends on
// it, its system calls and wake-ups with the translation. With thrash,
// the host walks 16 MiB between exchanges, as a default run's ebref (a
// working set of gigabytes) leaves the caches to the translator.
func BenchmarkServeOverPipe(b *testing.B) {
	rec := recordingOf(b)
	for _, thrash := range []bool{false, true} {
		name := "quiet"
		if thrash {
			name = "thrash"
		}
		b.Run(name, func(b *testing.B) { serveOverPipe(b, rec, thrash) })
	}
}

func serveOverPipe(b *testing.B, rec *recorded, thrash bool) {
	var junk []uint64
	if thrash {
		junk = make([]uint64, 16<<20/8)
	}
	b.Setenv("EBREF_TEST_TRANSLATOR", "reference")
	exchanges, requests := 0, 0
	var cpu int64
	reply := make([]byte, 0, 1<<20)
	for b.Loop() {
		b.StopTimer()
		_, children0 := cpuTimes(b)
		cmd := exec.Command(os.Args[0])
		stdin, err := cmd.StdinPipe()
		require.NoError(b, err)
		stdout, err := cmd.StdoutPipe()
		require.NoError(b, err)
		require.NoError(b, cmd.Start())
		_, err = stdin.Write(rec.in[:translator.HelloSize])
		require.NoError(b, err)
		hello := make([]byte, translator.HelloSize)
		_, err = io.ReadFull(stdout, hello)
		require.NoError(b, err)
		_, err = io.ReadFull(stdout, make([]byte, (le.Uint32(hello[8:])+3)&^3))
		require.NoError(b, err)
		b.StartTimer()
		in, outAt := translator.HelloSize, 0
		for c, end := range rec.chunks {
			if _, err := stdin.Write(rec.in[in:end]); err != nil {
				b.Fatal(err)
			}
			in = end
			n := rec.outChunks[c] - outAt
			if _, err := io.ReadFull(stdout, reply[:n]); err != nil {
				b.Fatal(err)
			}
			if !bytes.Equal(reply[:n], rec.out[outAt:rec.outChunks[c]]) {
				b.Fatalf("exchange %d: the replies differ from the reference's in process", c)
			}
			outAt = rec.outChunks[c]
			for i := 0; i < len(junk); i += 8 { // a line each
				junk[i]++
			}
		}
		b.StopTimer()
		stdin.Close()
		require.NoError(b, cmd.Wait())
		_, children := cpuTimes(b)
		cpu += children - children0
		exchanges += len(rec.chunks)
		requests += rec.requests
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(exchanges), "ns/exchange")
	b.ReportMetric(float64(cpu)/float64(exchanges), "translator-cpu-ns/exchange")
	b.ReportMetric(float64(cpu)/float64(requests), "translator-cpu-ns/request")
}
