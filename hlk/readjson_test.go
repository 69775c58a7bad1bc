package hlk

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadJSONRefusesWhatIsNotAWholeReport: a case with no status, or a
// null one, is not a Pass, and bytes after the report's value are not
// ignored (issue 32: both merged as CONFORMANT).
func TestReadJSONRefusesWhatIsNotAWholeReport(t *testing.T) {
	const env = `{"environment": {"version": "v", "driver": "d"}, "cases": [`
	ok := env + `{"suite": "s", "case": "c", "profile": "p", "status": "Fail"}]}`
	r, err := ReadJSON(strings.NewReader(ok + "\n"))
	require.NoError(t, err)
	require.Len(t, r.Cases, 1)
	assert.Equal(t, Fail, r.Cases[0].Status)

	for _, c := range []struct{ text, want string }{
		{env + `{"suite": "s", "case": "c", "profile": "p"}]}`, "case 0 (s/c on p) has no status"},
		{env + `{"suite": "s", "case": "c", "profile": "p", "status": null}]}`, "has no status"},
		{ok + `{"more": 1}`, "more after the report's JSON value"},
		{ok + ` x`, "more after the report's JSON value"},
		{env + `{"suite": "s", "case": "c", "profile": "p", "status": "Fine"}]}`, `no status "Fine"`},
	} {
		_, err := ReadJSON(strings.NewReader(c.text))
		assert.ErrorContains(t, err, c.want, c.text)
	}
}
