package hlk

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/ddi/debug"
	"github.com/ebref/ebref/internal/docgen"
)

const messagesDoc = "../docs/messages.md"

// messagesTable is docs/messages.md's table of every message ebref can
// emit, from ddi/debug's.
func messagesTable() string {
	var b strings.Builder
	b.WriteString("| ID | name | severity | when | rule | real layer |\n|---:|---|---|---|---|---|\n")
	for _, id := range debug.MessageIDs() {
		in := id.Info()
		real := "yes"
		if !id.Real() {
			real = "no: ebref's own"
		}
		fmt.Fprintf(&b, "| %d | `%s` | %s | %s | %s | %s |\n", uint32(id), id.Name(), in.Severity, in.When, in.Rule, real)
	}
	return b.String()
}

// TestMessagesDoc keeps docs/messages.md's table the code's: every message
// ddi/debug names is a row, with its documentation, and every row is a
// message; every EBREF_* name the code spells appears in the document; the
// real layer's IDs are below 100000 and ebref's own are named EBREF_*.
// go test ./hlk -run TestMessagesDoc -update rewrites the table.
func TestMessagesDoc(t *testing.T) {
	ids := debug.MessageIDs()
	for _, id := range ids {
		in := id.Info()
		assert.NotEmpty(t, in.When, "%d %s has no documentation in ddi/debug/table.go", id, id.Name())
		assert.NotEmpty(t, in.Rule, "%d %s cites no rule", id, id.Name())
		assert.Equal(t, !id.Real(), strings.HasPrefix(id.Name(), "EBREF_"), "%d %s: ebref's own IDs, and only they, are EBREF_*", id, id.Name())
	}
	require.NoError(t, docgen.Check(messagesDoc, "go test ./hlk -run TestMessagesDoc -update",
		[]docgen.Section{{Name: "messages", Body: messagesTable()}}, *update))

	raw, err := os.ReadFile(messagesDoc)
	require.NoError(t, err)
	doc := string(raw)
	rows := map[debug.MessageID]string{}
	for _, m := range regexp.MustCompile("(?m)^\\| (\\d+) \\| `([A-Z0-9_]+)` \\|").FindAllStringSubmatch(doc, -1) {
		n, err := strconv.ParseUint(m[1], 10, 32)
		require.NoError(t, err)
		rows[debug.MessageID(n)] = m[2]
	}
	assert.Len(t, rows, len(ids), "one row a message")
	for _, id := range ids {
		assert.Equal(t, id.Name(), rows[id], "the row of %d", id)
	}

	// Every EBREF_* name in the code, in strings and comments alike, but
	// the environment variables, which are no messages (docs/conformance.md
	// documents them).
	env := map[string]bool{"EBREF_SHARD_COUNT": true}
	names := map[string]bool{}
	re := regexp.MustCompile(`EBREF_[A-Z0-9_]+`)
	require.NoError(t, filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, n := range re.FindAllString(string(src), -1) {
			names[n] = !env[n]
		}
		return nil
	}))
	require.NotEmpty(t, names)
	for n, msg := range names {
		if msg {
			assert.Contains(t, doc, "`"+n+"`", "%s is spelled in the code but not in docs/messages.md", n)
		}
	}
}
