package ddi

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// specTables is the literal content of the spec's rule tables (000), names
// without prefixes, transcribed into testdata/spec_tables.json. "*" stands
// for the spec's "any valid sync bits".
type specTables struct {
	UmbrellaSyncs  map[string][]string `json:"umbrella_syncs"`
	Queues         map[string]map[string][]string
	LayoutAccesses map[string][]string `json:"layout_accesses"`
	AccessSyncs    map[string][]string `json:"access_syncs"`
	LegacyStates   map[string]struct {
		Layout   json.RawMessage `json:"layout"` // absent (nil), null (N/A) or a name
		Accesses []string        `json:"accesses"`
		Syncs    []string        `json:"syncs"`
	} `json:"legacy_states"`
}

func loadSpecTables(t *testing.T) specTables {
	raw, err := os.ReadFile("testdata/spec_tables.json")
	require.NoError(t, err)
	var s specTables
	require.NoError(t, json.Unmarshal(raw, &s))
	return s
}

// listDiff returns "+NAME" for names only ebref has and "-NAME" for names
// only the spec has.
func listDiff(path string, ours, spec []string, out *[]string) {
	in := func(xs []string, x string) bool {
		for _, y := range xs {
			if y == x {
				return true
			}
		}
		return false
	}
	for _, x := range ours {
		if !in(spec, x) {
			*out = append(*out, path+" +"+x)
		}
	}
	for _, x := range spec {
		if !in(ours, x) {
			*out = append(*out, path+" -"+x)
		}
	}
}

func mapDiff(path string, ours, spec map[string][]string, out *[]string) {
	for k, v := range ours {
		sv, ok := spec[k]
		if !ok {
			*out = append(*out, path+"."+k+" +row")
			continue
		}
		if len(sv) == 1 && sv[0] == "*" {
			sv = anySyncNames()
		}
		listDiff(path+"."+k, v, sv, out)
	}
	for k := range spec {
		if _, ok := ours[k]; !ok {
			*out = append(*out, path+"."+k+" -row")
		}
	}
}

// tableDiff lists every difference between ebref's rule tables and the
// spec's literal ones, one line per (place, name).
func tableDiff(t *testing.T) []string {
	spec := loadSpecTables(t)
	ours := Rules()
	var d []string
	mapDiff("umbrella_syncs", ours.UmbrellaSyncs, spec.UmbrellaSyncs, &d)
	for q, qd := range ours.Queues {
		sq, ok := spec.Queues[q]
		require.True(t, ok, q)
		listDiff("queues."+q+".layouts", qd.Layouts, sq["layouts"], &d)
		listDiff("queues."+q+".accesses", qd.Accesses, sq["accesses"], &d)
		listDiff("queues."+q+".syncs", qd.Syncs, sq["syncs"], &d)
	}
	mapDiff("layout_accesses", ours.LayoutAccesses, spec.LayoutAccesses, &d)
	mapDiff("access_syncs", ours.AccessSyncs, spec.AccessSyncs, &d)
	for k, v := range ours.LegacyStates {
		sv, ok := spec.LegacyStates[k]
		if !ok {
			d = append(d, "legacy_states."+k+" +row")
			continue
		}
		ourLayout := "N/A"
		if v.Layout != nil {
			ourLayout = *v.Layout
		}
		specLayout := "(absent)"
		if sv.Layout != nil {
			specLayout = "N/A"
			var s *string
			if json.Unmarshal(sv.Layout, &s) == nil && s != nil {
				specLayout = *s
			}
		}
		if ourLayout != specLayout {
			d = append(d, "legacy_states."+k+".layout "+specLayout+" -> "+ourLayout)
		}
		listDiff("legacy_states."+k+".accesses", v.Accesses, sv.Accesses, &d)
		listDiff("legacy_states."+k+".syncs", v.Syncs, sv.Syncs, &d)
	}
	for k := range spec.LegacyStates {
		if _, ok := ours.LegacyStates[k]; !ok {
			d = append(d, "legacy_states."+k+" -row")
		}
	}
	sort.Strings(d)
	return d
}

var diffLine = regexp.MustCompile("`((?:umbrella_syncs|queues|layout_accesses|access_syncs|legacy_states)\\.[^`]+)`")

// TestEveryTableDifferenceIsInTheErrata: the set of differences between
// ebref's tables and the spec's literal tables equals the set of differences
// docs/errata.md lists, in both directions.
func TestEveryTableDifferenceIsInTheErrata(t *testing.T) {
	raw, err := os.ReadFile("../docs/errata.md")
	require.NoError(t, err)
	listed := map[string]bool{}
	for _, m := range diffLine.FindAllStringSubmatch(string(raw), -1) {
		listed[m[1]] = true
	}
	diff := tableDiff(t)
	var missing []string
	for _, l := range diff {
		if !listed[l] {
			missing = append(missing, "- `"+l+"`")
		}
		delete(listed, l)
	}
	var stale []string
	for l := range listed {
		stale = append(stale, l)
	}
	sort.Strings(stale)
	assert.Empty(t, missing, "differences from the spec's tables that docs/errata.md does not list:\n%s", strings.Join(missing, "\n"))
	assert.Empty(t, stale, "docs/errata.md lists differences the tables no longer have")
}

// TestEveryErratumReferenceExists: each table row's Erratum names a heading
// of docs/errata.md.
func TestEveryErratumReferenceExists(t *testing.T) {
	raw, err := os.ReadFile("../docs/errata.md")
	require.NoError(t, err)
	text := string(raw)
	var ids []string
	for _, r := range UmbrellaSyncs {
		ids = append(ids, r.Erratum)
	}
	for _, r := range Queues {
		ids = append(ids, r.Erratum)
	}
	for _, r := range LayoutAccesses {
		ids = append(ids, r.Erratum)
	}
	for _, r := range AccessSyncs {
		ids = append(ids, r.Erratum)
	}
	for _, r := range LegacyStates {
		ids = append(ids, r.Erratum)
	}
	for _, id := range ids {
		if id == "" {
			continue
		}
		assert.Contains(t, text, "### "+id+":", "docs/errata.md has no entry %s", id)
	}
}

// TestEveryErratumCitedInTheRepoExists: every erratum ID that a Go file or a
// document of the repository cites is a heading of docs/errata.md, so a
// reader who follows a citation finds the decision.
func TestEveryErratumCitedInTheRepoExists(t *testing.T) {
	raw, err := os.ReadFile("../docs/errata.md")
	require.NoError(t, err)
	headings := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^### (E-[A-Z0-9-]+):`).FindAllStringSubmatch(string(raw), -1) {
		headings[m[1]] = true
	}
	cite := regexp.MustCompile(`\bE-[A-Z0-9]+(?:-[A-Z0-9]+)*\b`)
	var missing []string
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, ".md") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, id := range cite.FindAllString(string(b), -1) {
			if !headings[id] {
				missing = append(missing, path+": "+id)
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.Empty(t, missing, "errata cited but not in docs/errata.md")
}

// TestErrataStayInTheRepository: the errata cite the spec by its keys and
// public addresses, and the repository's own files by their paths; they
// point at no file outside the repository (../shared and the like, which a
// reader of the repository does not have), by link or by path (issue 34).
func TestErrataStayInTheRepository(t *testing.T) {
	raw, err := os.ReadFile("../docs/errata.md")
	require.NoError(t, err)
	doc := string(raw)
	for _, m := range regexp.MustCompile(`\]\(([^)#][^)]*)\)`).FindAllStringSubmatch(doc, -1) {
		target := m[1]
		if strings.Contains(target, "://") {
			continue // a public address
		}
		_, err := os.Stat(filepath.Join("../docs", target))
		assert.NoError(t, err, "docs/errata.md links %s, which the repository does not have", target)
		assert.False(t, strings.HasPrefix(filepath.Clean(filepath.Join("docs", target)), ".."), "docs/errata.md links %s, outside the repository", target)
	}
	assert.NotRegexp(t, "`\\.\\./[^`]*`", doc, "a path outside the repository")
	assert.NotContains(t, doc, "shared/legacy-interop.md")
}
