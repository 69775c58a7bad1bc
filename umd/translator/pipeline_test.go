package translator_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hlk/reference"
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
		require.NotEmpty(t, te.Dump)
		data, err := os.ReadFile(te.Dump)
		require.NoError(t, err)
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
	suites, err := hlk.Suites()
	require.NoError(t, err)
	rep, err := hlk.Execute(context.Background(), hlk.Config{Suites: suites, Only: []string{"cost"}, Profiles: []string{"discrete"},
		Driver: reference.WithTranslator(p)})
	require.NoError(t, err)
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
