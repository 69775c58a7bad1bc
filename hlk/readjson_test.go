package hlk

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sealed is a one-case report as WriteJSON writes it.
func sealed(t *testing.T) string {
	t.Helper()
	r := &Report{Environment: Environment{Version: "v", Driver: "d", Planned: 1},
		Cases: []CaseResult{{Suite: "s", Case: "c", Profile: "p", Status: Fail}}}
	var buf bytes.Buffer
	require.NoError(t, WriteJSON(&buf, r))
	return buf.String()
}

// TestReadJSONRefusesWhatIsNotAWholeReport: a case with no status, or a
// null one, is not a Pass; bytes after the report's value are not
// ignored; a report edited after it was written, cut short or without its
// digest is refused (issue 32: each merged as CONFORMANT).
func TestReadJSONRefusesWhatIsNotAWholeReport(t *testing.T) {
	ok := sealed(t)
	r, err := ReadJSON(strings.NewReader(ok))
	require.NoError(t, err)
	require.Len(t, r.Cases, 1)
	assert.Equal(t, Fail, r.Cases[0].Status)

	edit := func(old, new string) string {
		require.Contains(t, ok, old)
		return strings.Replace(ok, old, new, 1)
	}
	for _, c := range []struct{ text, want string }{
		{edit(`"status": "Fail",`, ``), "case 0 (s/c on p) has no status"},
		{edit(`"status": "Fail"`, `"status": null`), "has no status"},
		{ok + `{"more": 1}`, "more after the report's JSON value"},
		{ok + ` x`, "more after the report's JSON value"},
		{edit(`"status": "Fail"`, `"status": "Fine"`), `no status "Fine"`},
		{edit(`"status": "Fail"`, `"status": "Pass"`), "it was changed after ebref wrote it"},
		{edit(`"profile": "p"`, `"profile": "q"`), "it was changed after ebref wrote it"},
		{edit(`"digest"`, `"digest_"`), "the report has no digest"},
		{edit(`"planned": 1`, `"planned": 2`), "it was changed after ebref wrote it"},
	} {
		_, err := ReadJSON(strings.NewReader(c.text))
		assert.ErrorContains(t, err, c.want, c.text)
	}

	// A report cut short by its writer (the run stopped) is sealed, but
	// holds fewer cases than it planned.
	short := &Report{Environment: Environment{Version: "v", Driver: "d", Planned: 2},
		Cases: []CaseResult{{Suite: "s", Case: "c", Profile: "p", Status: Pass}}}
	var buf bytes.Buffer
	require.NoError(t, WriteJSON(&buf, short))
	_, err = ReadJSON(&buf)
	assert.ErrorContains(t, err, "holds 1 cases of the 2 its run planned")
}

// A report read back may carry anything in its names and messages; the
// summary never sends a control character to the terminal raw.
func TestSummaryEscapesControlCharacters(t *testing.T) {
	r := &Report{Environment: Environment{Version: "v", Driver: "d\x1b]0;title\a"},
		Cases: []CaseResult{{Suite: "s", Case: "c\x1b[2J", Profile: "p", Status: Fail, Messages: []string{"m\r\x1b[31m"}}}}
	var buf bytes.Buffer
	require.NoError(t, WriteSummary(&buf, r))
	assert.NotContains(t, buf.String(), "\x1b")
	assert.NotContains(t, buf.String(), "\r")
	assert.Contains(t, buf.String(), `s/c\x1b[2J on p`)
	assert.Contains(t, buf.String(), `m\x0d\x1b[31m`)
}
