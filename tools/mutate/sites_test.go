package main

import (
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sample = `package p

func flush(m, n uint32, ok bool) uint32 {
	if m == 0 && ok {
		m |= n
	}
	record(m | 4)
	return m &^ n
}

func (x T) String() string {
	if x == 0 {
		return "zero"
	}
	return "x"
}

func record(uint32) {}
`

// TestSites: each operator finds its sites, String is skipped, and every
// mutant is still Go.
func TestSites(t *testing.T) {
	ss, err := sites("p.go", []byte(sample), skipFunc)
	require.NoError(t, err)
	var got []string
	for _, s := range ss {
		got = append(got, s.Operator+" "+s.Was+" -> "+s.Text)
	}
	assert.Equal(t, []string{
		"negate-condition m == 0 && ok -> !(m == 0 && ok)",
		"swap-operator == -> !=",
		"swap-operator && -> ||",
		"remove-statement m |= n -> ",
		"remove-statement record(m | 4) -> ",
		"drop-mask-bit  | 4 -> ",
		"swap-operator &^ -> &",
	}, got)
	for _, s := range ss {
		mutant := s.apply([]byte(sample))
		_, err := parser.ParseFile(token.NewFileSet(), "m.go", mutant, 0)
		assert.NoError(t, err, "%s gives:\n%s", s, mutant)
		assert.NotEqual(t, sample, string(mutant))
	}
	assert.Equal(t, 4, ss[0].Line)
	assert.Contains(t, ss[0].String(), "p.go:4:5: negate-condition")
}

func TestSitesRejectsBrokenGo(t *testing.T) {
	_, err := sites("bad.go", []byte("package p\nfunc {"), skipFunc)
	assert.Error(t, err)
}

// TestRunRefusesBadFlags: flag errors are usage errors (exit 2) and run
// nothing.
func TestRunRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{{"--every", "0"}, {"--limit", "-1"}, {"--timeout", "0s"}, {"extra"}, {"--nope"}} {
		assert.Equal(t, 2, run(args, io.Discard, io.Discard), "%v", args)
	}
}

func TestFirstError(t *testing.T) {
	assert.Equal(t, "umd/x.go:3:2: declared and not used: f", firstError([]byte("# github.com/ebref/ebref/umd\numd/x.go:3:2: declared and not used: f\n")))
	assert.Equal(t, "b", lastLine([]byte("a\nb\n")))
}

func TestAddedLines(t *testing.T) {
	diff := "diff --git a/x.go b/x.go\n@@ -3,0 +4,2 @@ func f() {\n+a\n+b\n@@ -10 +12 @@\n-c\n+d\n@@ -20,3 +22,0 @@\n-e\n"
	assert.Equal(t, map[int]bool{4: true, 5: true, 12: true}, addedLines([]byte(diff)))
}

// A survivor is told apart by whether any case's packets changed.
func TestSurvivorDetail(t *testing.T) {
	dir := t.TempDir()
	write := func(name, digest string) string {
		p := filepath.Join(dir, name)
		body := `{"cases":[{"suite":"s","case":"a","profile":"p","packets_digest":"1"},` +
			`{"suite":"s","case":"b","profile":"p","packets_digest":"` + digest + `"}]}`
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
		return p
	}
	base, err := digests(write("base.json", "2"))
	require.NoError(t, err)
	r := &runner{base: base}
	assert.Equal(t, "ebref hlk stays conformant; no case records other packets", r.survivorDetail(write("same.json", "2")))
	assert.Equal(t, "ebref hlk stays conformant; 1 cases record other packets", r.survivorDetail(write("other.json", "3")))
	_, err = digests(filepath.Join(dir, "missing.json"))
	assert.Error(t, err)
}

func TestScoreOfAndMinScoreBounds(t *testing.T) {
	if got := scoreOf(map[verdict]int{}); got != "score -" {
		t.Errorf("no mutant scored: %q", got)
	}
	if got := scoreOf(map[verdict]int{killed: 3, survived: 1, invalid: 5}); got != "score 75.0%" {
		t.Errorf("3 killed of 4 scored: %q", got)
	}
	var out, errb strings.Builder
	if code := run([]string{"--min-score", "101"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--min-score from 0 to 100") {
		t.Errorf("--min-score 101: exit %d, %q", code, errb.String())
	}
}

// A kill is judged by safety: cases that fail only on cost do not count,
// distinct cases are counted once over profiles, and fewer than three are
// thin.
func TestReadCatch(t *testing.T) {
	dir := t.TempDir()
	write := func(name, cases string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(`{"cases":[`+cases+`]}`), 0o644))
		return p
	}
	pass := `{"suite":"s","case":"ok","profile":"p","status":"Pass"}`
	cost := `{"suite":"s","case":"c","profile":"p","status":"Fail","costlier":true,"messages":["costs more"]}`
	safe := func(c, p string) string {
		return `{"suite":"s","case":"` + c + `","profile":"` + p + `","status":"Fail","messages":["hazard"]}`
	}
	c, err := readCatch(write("cost.json", pass+","+cost))
	require.NoError(t, err)
	assert.False(t, c.safe)
	assert.Equal(t, "COST-ONLY", c.label())
	assert.Equal(t, "s/c on p: costs more", c.first)

	c, err = readCatch(write("thin.json", cost+","+safe("a", "p")+","+safe("a", "q")+","+safe("b", "p")))
	require.NoError(t, err)
	assert.True(t, c.safe)
	assert.Equal(t, 2, c.cases, "one case on two profiles counts once")
	assert.Equal(t, "thin", c.label())
	assert.Equal(t, "s/a on p: hazard", c.first)

	c, err = readCatch(write("wide.json", safe("a", "p")+","+safe("b", "p")+","+safe("d", "p")))
	require.NoError(t, err)
	assert.Equal(t, "killed", c.label())

	r := &runner{tmp: dir} // no report at r.report(): the run did not finish
	c = r.judge("timed out")
	assert.Equal(t, "killed", c.label())
	assert.Equal(t, "timed out", c.first)
}

func TestSeamSites(t *testing.T) {
	assert.True(t, seamSite("umd/seam.go"))
	assert.True(t, seamSite("umd/reference.go"))
	assert.False(t, seamSite("umd/translate.go"))
	r := &runner{tmp: "/tmp/it's"}
	assert.Equal(t, []string{"--translator", `'/tmp/it'"'"'s/ebref' translator serve`}, r.translatorArgs())
}
