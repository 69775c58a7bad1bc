package translator_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hlk/reference"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/umd"
	"github.com/ebref/ebref/umd/translator"
)

// pipelineOf opens the process's translator on the discrete profile and
// begins a pipeline.
func pipelineOf(t *testing.T, p *translator.Process) translator.Pipeline {
	tr, err := p.Open(discrete(t))
	require.NoError(t, err)
	pl, ok := tr.(translator.Pipeliner)
	require.True(t, ok, "a Process's translator is a Pipeliner")
	return pl.Pipeline()
}

// numbered is globalRequest as call n.
func numbered(n int) *translator.Request {
	req := globalRequest()
	req.Call = uint32(n)
	return req
}

// TestPipelineAnswersInOrder: requests sent ahead are answered in order,
// as each would be alone, in one exchange; a full queue says so.
func TestPipelineAnswersInOrder(t *testing.T) {
	p, err := start(t, "reference", 5*time.Second)
	require.NoError(t, err)
	q := pipelineOf(t, p)
	want, err := umd.NewReference(discrete(t)).Translate(globalRequest(), nil)
	require.NoError(t, err)
	for round := 0; round < 2; round++ {
		exchanges := p.Exchanges()
		for i := 1; i <= 10; i++ {
			require.True(t, q.Send(numbered(i)))
		}
		assert.Equal(t, 10, q.Len())
		for i := 1; i <= 10; i++ {
			got, err := q.Receive(nil)
			require.NoError(t, err)
			assert.Equal(t, want, got, "reply %d", i)
		}
		assert.Zero(t, q.Len())
		assert.Equal(t, exchanges+1, p.Exchanges(), "ten calls, one exchange")
	}
	n := 0
	for q.Send(numbered(n + 1)) {
		n++
	}
	frame := len(translator.AppendRequest(nil, numbered(1)))
	assert.Equal(t, min(translator.PipelineCalls, translator.PipelineBytes/frame), n, "the queue is bounded")
	q.Drop()
	assert.Zero(t, q.Len())
	got, err := translate(t, p)
	require.NoError(t, err, "the copy serves again after a Drop of sent requests")
	assert.Equal(t, want, got)
}

// TestPipelineFailures: with several requests in flight, a crash is the
// first unanswered request's, dumped alone; a translator that hangs on
// one is a Timeout on it, each reply with its own deadline.
func TestPipelineFailures(t *testing.T) {
	t.Run("crash", func(t *testing.T) {
		p, err := start(t, "crash-on-3", 5*time.Second)
		require.NoError(t, err)
		q := pipelineOf(t, p)
		for i := 1; i <= 5; i++ {
			require.True(t, q.Send(numbered(i)))
		}
		// Serve holds its replies back while requests are buffered: the
		// first two went down with it, so the failure is the first
		// unanswered call's, and the file holds all five.
		_, err = q.Receive(nil)
		te := kindOf(t, err)
		assert.Equal(t, translator.ErrCrash, te.Kind)
		assert.Contains(t, err.Error(), "it ended with exit status 5")
		assert.Contains(t, err.Error(), "4 later calls were sent with it")
		assert.Contains(t, strings.Join(te.Stderr, "\n"), "the third call, number 3")
		data := dumpFile(t, te)
		frame := translator.AppendRequest(nil, numbered(1))
		require.Greater(t, len(data), 5*len(frame))
		data = data[len(data)-5*len(frame):]
		for i := 1; i <= 5; i++ {
			var req translator.Request
			require.NoError(t, translator.DecodeRequest(data[translator.FrameHeaderSize:len(frame)], &req))
			assert.Equal(t, uint32(i), req.Call)
			data = data[len(frame):]
		}
		assert.Equal(t, 4, q.Len(), "the rest are still queued")
		q.Drop()
		assert.Zero(t, q.Len())
		_, err = translate(t, p)
		require.NoError(t, err, "a fresh copy serves the next call")
	})
	t.Run("hang", func(t *testing.T) {
		p, err := start(t, "hang-on-2", 2*time.Second)
		require.NoError(t, err)
		q := pipelineOf(t, p)
		for i := 1; i <= 3; i++ {
			require.True(t, q.Send(numbered(i)))
		}
		time.Sleep(400 * time.Millisecond) // longer than a deadline before the replies are asked for: not a timeout
		began := time.Now()
		_, err = q.Receive(nil)
		// Serve held the first reply back while it hung on the second.
		assert.Equal(t, translator.ErrTimeout, kindOf(t, err).Kind)
		assert.Less(t, time.Since(began), 3*time.Second)
		assert.Equal(t, 2, q.Len())
		q.Drop()
		assert.Zero(t, q.Len())
	})
}

// TestPipelineAllocatesNothing: a call sent ahead and answered allocates
// nothing on ebref's side once the queue has its memory.
func TestPipelineAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("under -race sync.Pool drops the queue's memory at random; the run without -race checks the allocations")
	}
	p, err := start(t, "reference", 5*time.Second)
	require.NoError(t, err)
	q := pipelineOf(t, p)
	req := globalRequest()
	var words []uint32
	round := func() {
		for i := 0; i < 4; i++ {
			q.Send(req)
		}
		for i := 0; i < 4; i++ {
			if words, err = q.Receive(words[:0]); err != nil {
				t.Fatal(err)
			}
		}
	}
	round()
	assert.Zero(t, testing.AllocsPerRun(100, round))
}

// TestBadRepliesMidRun: a reply naming a surface the call does not have,
// read when its list closes with the list's other calls, fails the case
// with the call, the dword and what was wrong, placed at the call.
func TestBadRepliesMidRun(t *testing.T) {
	p, err := start(t, "bad-surface", 5*time.Second)
	require.NoError(t, err)
	rep := execute(t, hlk.Config{Only: []string{"cost"}, Profiles: []string{"discrete"}, Driver: reference.WithTranslator(p)})
	failed := 0
	for i := range rep.Cases {
		c := &rep.Cases[i]
		if c.Status.Conformant() {
			continue
		}
		failed++
		msg := strings.Join(c.Messages, "\n")
		assert.Contains(t, msg, "surface 99, which none of the call's textures has")
		assert.Regexp(t, `Barrier #\d+ \(\d+ records\)`, msg)
		assert.Contains(t, msg, "(reply dword 0)")
		if failed == 1 {
			t.Log(msg)
		}
	}
	assert.NotZero(t, failed)
	assert.Less(t, p.Exchanges(), p.Requests(), "calls went together")
}

// sendCalls queues calls first, first+1, ... (n of them) on q.
func sendCalls(t *testing.T, q translator.Pipeline, first, n int) {
	t.Helper()
	for i := range n {
		require.True(t, q.Send(numbered(first+i)))
	}
}

// receiveEchoes receives n replies from an echo translator's pipeline and
// checks each answers call first+i on profile id.
func receiveEchoes(t *testing.T, q translator.Pipeline, first, n int, id uint32) {
	t.Helper()
	for i := range n {
		got, err := q.Receive(nil)
		require.NoError(t, err)
		require.Equal(t, []uint32{uint32(first + i), id}, got, "the reply to call %d", first+i)
	}
	require.Zero(t, q.Len())
}

// openPipeline begins a pipeline on the named profile.
func openPipeline(t *testing.T, p *translator.Process, profile string) translator.Pipeline {
	prof, err := hwmodel.LookupProfile(profile)
	require.NoError(t, err)
	tr, err := p.Open(prof)
	require.NoError(t, err)
	return tr.(translator.Pipeliner).Pipeline()
}

// TestListsGoTogether: the requests of command lists waiting at the same
// moment, on different profiles, leave in one write, each list's after
// its profile's frame where the copy lacks it, and each reply reaches its
// own list; a list that would make the write larger than PipelineBytes
// goes in the next write, by the same caller.
func TestListsGoTogether(t *testing.T) {
	p, err := start(t, "echo", 5*time.Second)
	require.NoError(t, err)
	profiles := hwmodel.Profiles()
	require.GreaterOrEqual(t, len(profiles), 2)
	a, b, c := openPipeline(t, p, profiles[0].Name), openPipeline(t, p, profiles[1].Name), openPipeline(t, p, profiles[0].Name)
	sendCalls(t, a, 1, 3)
	sendCalls(t, b, 10, 2)
	sendCalls(t, c, 20, 1)
	before := p.Exchanges()
	require.NoError(t, p.SendTogether(a, b, c))
	assert.Equal(t, before+1, p.Exchanges(), "three lists, one write")
	receiveEchoes(t, c, 20, 1, 1) // in any order
	receiveEchoes(t, b, 10, 2, 2)
	receiveEchoes(t, a, 1, 3, 1)
	assert.Equal(t, before+1, p.Exchanges(), "the replies were all read with the write's")

	// A full list after another does not fit in the same write: it goes
	// in a second write to the same copy once the first's replies are
	// read, so no list waits for another leader.
	full := openPipeline(t, p, profiles[1].Name)
	n := 0
	for full.Send(numbered(100 + n)) {
		n++
	}
	sendCalls(t, a, 1, 1)
	before = p.Exchanges()
	require.NoError(t, p.SendTogether(a, full))
	assert.Equal(t, before+2, p.Exchanges(), "two writes")
	receiveEchoes(t, a, 1, 1, 1)
	receiveEchoes(t, full, 100, n, 2)
	assert.Equal(t, before+2, p.Exchanges(), "the full list's replies were read with its write's")
}

// TestListsTogetherCrash: a copy lost with several lists' requests in one
// write fails the first request not answered, saying what else was in
// flight, and dumps every request not answered, each list's profile's
// frame before it, for replay; nothing after it is answered, and the next
// write, to a fresh copy, carries the frames of every profile it needs.
func TestListsTogetherCrash(t *testing.T) {
	p, err := start(t, "crash-on-3", 5*time.Second)
	require.NoError(t, err)
	profiles := hwmodel.Profiles()
	a, b, c := openPipeline(t, p, profiles[0].Name), openPipeline(t, p, profiles[1].Name), openPipeline(t, p, profiles[0].Name)
	sendCalls(t, a, 1, 2)
	sendCalls(t, b, 3, 2)
	sendCalls(t, c, 5, 1)
	require.NoError(t, p.SendTogether(a, b, c))
	// Serve holds its replies back while requests are buffered, so a's
	// went down with the copy too, though the third call was b's: the
	// first unanswered request is a's.
	_, err = a.Receive(nil)
	te := kindOf(t, err)
	assert.Equal(t, translator.ErrCrash, te.Kind)
	assert.Contains(t, err.Error(), "4 later calls were sent with it and not answered, 3 of them from 2 other command lists")
	assert.Contains(t, strings.Join(te.Stderr, "\n"), "the third call, number 3")
	data := dumpFile(t, te)
	var ops, calls []uint32
	for len(data) >= translator.FrameHeaderSize {
		op, size := le32(data), le32(data[4:])
		ops = append(ops, op)
		if op == translator.OpRequest {
			var req translator.Request
			require.NoError(t, translator.DecodeRequest(data[translator.FrameHeaderSize:translator.FrameHeaderSize+int(size)], &req))
			calls = append(calls, req.Call)
		}
		data = data[translator.FrameHeaderSize+int(size):]
	}
	require.Empty(t, data)
	P, R := translator.OpProfile, translator.OpRequest
	assert.Equal(t, []uint32{P, R, R, P, R, R, R}, ops, "a's profile, a's two calls, b's profile, b's and c's calls")
	assert.Equal(t, []uint32{1, 2, 3, 4, 5}, calls)
	// Nothing after the first unanswered call was answered: each list
	// still holds its requests, to send to another copy.
	assert.Equal(t, 1, a.Len())
	assert.Equal(t, 2, b.Len())
	assert.Equal(t, 1, c.Len())
	for _, q := range []translator.Pipeline{a, b, c} {
		q.Drop()
	}
	// The next write goes to a fresh copy, which has seen no profile: both
	// profiles' frames go in it, each before its first list.
	d, f := openPipeline(t, p, profiles[1].Name), openPipeline(t, p, profiles[0].Name)
	sendCalls(t, d, 7, 1)
	sendCalls(t, f, 8, 1)
	require.NoError(t, p.SendTogether(d, f))
	for _, q := range []translator.Pipeline{d, f} {
		got, err := q.Receive(nil)
		require.NoError(t, err)
		assert.NotEmpty(t, got)
	}
}

// le32 is the little-endian dword at b.
func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// TestListsGatherAcrossGoroutines: callers on many goroutines, each
// waiting for its own lists' replies, get their own replies, and their
// lists go together (the harness's jobs, hlk.Jobs).
func TestListsGatherAcrossGoroutines(t *testing.T) {
	p, err := start(t, "echo", 5*time.Second)
	require.NoError(t, err)
	const callers, lists = 16, 30
	profiles := hwmodel.Profiles()
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for g := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			prof := profiles[g%len(profiles)]
			tr, err := p.Open(prof)
			if err != nil {
				errs <- err
				return
			}
			for l := range lists {
				q := tr.(translator.Pipeliner).Pipeline()
				first := (g*lists+l)*4 + 1
				n := 1 + l%3
				for i := range n {
					q.Send(numbered(first + i))
				}
				for i := range n {
					got, err := q.Receive(nil)
					if err == nil && (len(got) != 2 || got[0] != uint32(first+i)) {
						err = fmt.Errorf("caller %d: the reply to call %d is %v", g, first+i, got)
					}
					if err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	assert.Less(t, p.Exchanges(), callers*lists, "lists waiting together went together")
	t.Logf("%d lists, %d exchanges", callers*lists, p.Exchanges())
}
