package floors

import (
	"fmt"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/ebref/ebref/"

// floor is each package's level. A package imports only packages on lower
// floors: the hardware (hwmodel) and the packet format (cmdbuf) at the
// bottom with the DDI's data (ddi); the runtime's legacy translation
// (ddi/legacy) beside the driver, never inside it; the driver (umd) the
// only room where the DDI and the hardware meet; the harness (hlk) above the
// driver's floor without importing it; bench and the tools on top. A new
// package fails this test until it is given its floor here.
var floor = map[string]int{
	// Helpers that know nothing of barriers, below everything.
	"internal/docgen":    -1,
	"internal/ortable":   -1,
	"internal/printable": -1,
	"internal/floors":    -1,
	"internal/memtest":   -1,

	"cmdbuf": 0,
	"ddi":    0,

	"ddi/debug":                       1,
	"ddi/internal/cabi":               1,
	"resource":                        1,
	"hwmodel":                         1,
	"internal/dditrace":               1,
	"umd/translator/internal/cheader": 1,

	"ddi/legacy":            2,
	"caps":                  2,
	"umd/translator":        2,
	"bench/internal/oracle": 2,
	"bench/internal/chart":  2,

	// The interfaces the harness judges a driver through, as
	// database/sql/driver is for SQL drivers: a driver imports them.
	"hlk/driver": 3,

	"umd":          4,
	"hlk/scenario": 4, // the scenario language: what the harness runs and bench prints

	"hlk/gen": 5, // programs written in the language

	"hlk":           6, // above the driver's floor: it judges any driver, so imports none
	"hlk/reference": 6, // ebref's own driver, as the harness drives it

	"bench": 7,

	"tools/ebref":  8,
	"tools/mutate": 8,
}

// never are imports no floor may make, whatever the levels say.
var never = map[string][]string{
	// The hardware knows no D3D12.
	"hwmodel": {"ddi", "ddi/debug", "resource"},
	"cmdbuf":  {"ddi", "ddi/debug", "resource"},
	// The runtime's translation sits beside the driver.
	"umd": {"ddi/legacy"},
}

// TestFloors: every package of the module has a floor, its doc comment
// states its import rule, and its non-test imports of the module are
// exactly the ones the rule names, each on a lower floor.
func TestFloors(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	pkgs, err := load(root)
	require.NoError(t, err)
	require.Contains(t, pkgs, "umd", "the walk finds the packages")
	require.Contains(t, pkgs["umd"].imports, "hwmodel", "the walk reads the imports")
	for _, problem := range check(pkgs, floor, never) {
		t.Error(problem)
	}
	// The table names no package that is gone.
	for rel := range floor {
		_, err := os.Stat(filepath.Join(root, rel))
		assert.NoError(t, err, "the floors table names %s, which is not there", rel)
	}
}

// TestCheckFindsEachBreak: each rule check enforces fails when broken,
// on a made-up module.
func TestCheckFindsEachBreak(t *testing.T) {
	levels := map[string]int{"low": 0, "mid": 1, "high": 2}
	nev := map[string][]string{"high": {"low"}}
	good := map[string]pkg{
		"low":  {file: "low/doc.go", rule: []string{}, ruled: true},
		"mid":  {file: "mid/doc.go", imports: []string{"low"}, rule: []string{"low"}, ruled: true},
		"high": {file: "high/doc.go", imports: []string{"mid"}, rule: []string{"mid"}, ruled: true},
	}
	require.Empty(t, check(good, levels, nev))
	for _, c := range []struct {
		name   string
		change func(map[string]pkg)
		want   string
	}{
		{"an arrow up", func(m map[string]pkg) {
			m["low"] = pkg{file: "low/doc.go", imports: []string{"mid"}, rule: []string{"mid"}, ruled: true}
		}, "low (floor 0) imports mid (floor 1): an arrow up or sideways"},
		{"an arrow sideways", func(m map[string]pkg) {
			levels["side"] = 1
			m["mid"] = pkg{file: "mid/doc.go", imports: []string{"side"}, rule: []string{"side"}, ruled: true}
		}, "mid (floor 1) imports side (floor 1): an arrow up or sideways"},
		{"a never", func(m map[string]pkg) {
			m["high"] = pkg{file: "high/doc.go", imports: []string{"low", "mid"}, rule: []string{"low", "mid"}, ruled: true}
		}, "high must never import low"},
		{"no floor", func(m map[string]pkg) {
			m["new"] = pkg{file: "new/doc.go", rule: []string{}, ruled: true}
		}, "package new has no floor"},
		{"no rule", func(m map[string]pkg) {
			m["mid"] = pkg{file: "mid/doc.go", imports: []string{"low"}}
		}, "mid/doc.go: the package's doc comment states no import rule"},
		{"an import the rule does not name", func(m map[string]pkg) {
			m["high"] = pkg{file: "high/doc.go", imports: []string{"low", "mid"}, rule: []string{"mid"}, ruled: true}
		}, "high/doc.go: high imports low, which its doc comment's import rule does not name"},
		{"a rule naming what is not imported", func(m map[string]pkg) {
			m["high"] = pkg{file: "high/doc.go", imports: []string{"mid"}, rule: []string{"low", "mid"}, ruled: true}
		}, "high/doc.go: the doc comment says high imports low, which it does not"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := maps.Clone(good)
			saved := maps.Clone(levels)
			defer func() { levels = saved }()
			c.change(m)
			problems := check(m, levels, nev)
			assert.True(t, slices.ContainsFunc(problems, func(p string) bool { return strings.HasPrefix(p, c.want) }),
				"%q not among %q", c.want, problems)
		})
	}
}

// TestParseRule reads the rule's two forms and nothing else.
func TestParseRule(t *testing.T) {
	for doc, want := range map[string][]string{
		"Package x is a thing.\n\nThis package imports nothing of ebref.\n":                                 {},
		"Package x.\n\nThis package imports cmdbuf and nothing else of ebref: it knows.":                    {"cmdbuf"},
		"Package x.\n\nThis package imports ddi, hwmodel\nand internal/ortable, and nothing else of ebref.": {"ddi", "hwmodel", "internal/ortable"},
		"Command x.\n\nThis command imports umd and nothing else of ebref.":                                 {"umd"},
	} {
		got, ok := parseRule(doc)
		assert.True(t, ok, doc)
		assert.Equal(t, want, got, doc)
	}
	for _, doc := range []string{"Package x imports things.", "This package imports some of ebref.", ""} {
		_, ok := parseRule(doc)
		assert.False(t, ok, doc)
	}
}

// pkg is what the test reads of one package.
type pkg struct {
	file    string   // the file holding the package's doc comment
	imports []string // its non-test imports of the module, module-relative
	rule    []string // the imports its doc comment's rule names
	ruled   bool     // the doc comment states a rule
}

// ruleRE matches a doc comment's import rule: "This package imports
// nothing of ebref", or "This package imports A, B and C[,] and nothing
// else of ebref" (a command says "This command").
var ruleRE = regexp.MustCompile(`[Tt]his (?:package|command) imports (nothing|([^\s,]+(?:(?:,| and) [^\s,]+)*),? and nothing else) of ebref`)

// parseRule returns the packages a doc comment's import rule names.
func parseRule(doc string) ([]string, bool) {
	m := ruleRE.FindStringSubmatch(strings.Join(strings.Fields(doc), " "))
	if m == nil {
		return nil, false
	}
	names := []string{}
	if m[1] != "nothing" {
		for _, part := range strings.Split(strings.ReplaceAll(m[2], " and ", ", "), ", ") {
			names = append(names, strings.TrimSpace(part))
		}
	}
	return names, true
}

// load reads every package of the module under root: where its doc
// comment is, the rule it states and its non-test imports of the module.
func load(root string) (map[string]pkg, error) {
	pkgs := map[string]pkg{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if n := d.Name(); p != root && (n == "testdata" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
			return filepath.SkipDir
		}
		if strings.HasPrefix(rel, "examples/") || rel == "examples" {
			return filepath.SkipDir // programs for readers, on top of everything
		}
		bp, err := build.ImportDir(p, 0)
		if _, none := err.(*build.NoGoError); none {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		var k pkg
		for _, imp := range bp.Imports {
			if dep, ok := strings.CutPrefix(imp, module); ok {
				k.imports = append(k.imports, dep)
			}
		}
		// The doc comment, from whichever file of the package holds it
		// (doc.go where there is one), whatever the build constraints.
		files := slices.Concat(bp.GoFiles, bp.CgoFiles, bp.IgnoredGoFiles)
		slices.Sort(files)
		if i := slices.Index(files, "doc.go"); i > 0 {
			files[0], files[i] = files[i], files[0]
		}
		fset := token.NewFileSet()
		for _, name := range files {
			f, err := parser.ParseFile(fset, filepath.Join(p, name), nil, parser.PackageClauseOnly|parser.ParseComments)
			if err != nil {
				return err
			}
			if f.Doc != nil {
				k.file = rel + "/" + name
				k.rule, k.ruled = parseRule(f.Doc.Text())
				break
			}
		}
		if k.file == "" {
			k.file = rel + "/doc.go"
		}
		pkgs[rel] = k
		return nil
	})
	return pkgs, err
}

// check returns every break of the floors: a package without a floor or
// without an import rule, an import the rule does not name or a rule naming
// what is not imported, an arrow up or sideways, a never.
func check(pkgs map[string]pkg, levels map[string]int, nev map[string][]string) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	for _, rel := range slices.Sorted(maps.Keys(pkgs)) {
		k := pkgs[rel]
		mine, ok := levels[rel]
		if !ok {
			bad("package %s has no floor: give it one in internal/floors/floors_test.go", rel)
			continue
		}
		if !k.ruled {
			bad("%s: the package's doc comment states no import rule: say \"This package imports nothing of ebref\" or \"This package imports A, B and C, and nothing else of ebref\"", k.file)
		}
		for _, dep := range k.imports {
			theirs, known := levels[dep]
			if !known {
				bad("%s imports %s, which has no floor", rel, dep)
			} else if theirs >= mine {
				bad("%s (floor %d) imports %s (floor %d): an arrow up or sideways", rel, mine, dep, theirs)
			}
			if slices.Contains(nev[rel], dep) {
				bad("%s must never import %s", rel, dep)
			}
			if k.ruled && !slices.Contains(k.rule, dep) {
				bad("%s: %s imports %s, which its doc comment's import rule does not name", k.file, rel, dep)
			}
		}
		for _, dep := range k.rule {
			if !slices.Contains(k.imports, dep) {
				bad("%s: the doc comment says %s imports %s, which it does not", k.file, rel, dep)
			}
		}
	}
	return problems
}
