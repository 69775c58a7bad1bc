package floors

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ebref/ebref/internal/docgen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the floors diagram in ARCHITECTURE.md")

// houseDocs are the documents whose code names must exist.
var houseDocs = []string{"ARCHITECTURE.md", "CONTRIBUTING.md", "docs/translation.md"}

// codeName matches a name in backquotes: pkg.Name, pkg.(*Type).Method or
// pkg.Type.Method, pkg a package path of the module.
var codeName = regexp.MustCompile("`((?:[a-z0-9]+/)*[a-z0-9]+)\\.(?:\\((\\*?)([A-Za-z_][A-Za-z0-9_]*)\\)\\.|([A-Za-z_][A-Za-z0-9_]*)\\.)?([A-Za-z_][A-Za-z0-9_]*)`")

// docPath matches a path of the repository in backquotes (no globs, no
// placeholders).
var docPath = regexp.MustCompile("`((?:\\.ci|bench|caps|cmdbuf|ddi|docs|examples|hlk|hwmodel|internal|resource|tools|umd)/[A-Za-z0-9_./-]*[A-Za-z0-9_])`")

// TestDocNamesExist: every function, method or type the house's documents
// name as pkg.Name exists in that package (test files included, for the
// tests they cite), and every file path they give in backquotes exists.
func TestDocNamesExist(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	decls := &declIndex{root: root}
	for _, doc := range houseDocs {
		raw, err := os.ReadFile(filepath.Join(root, doc))
		require.NoError(t, err)
		names := 0
		for i, line := range strings.Split(string(raw), "\n") {
			for _, m := range codeName.FindAllStringSubmatch(line, -1) {
				pkg := m[1]
				if _, ok := floor[pkg]; !ok {
					continue // not a package of the module: a file name, a field
				}
				names++
				recv, name := m[3]+m[4], m[5]
				if !decls.has(pkg, recv, name) {
					t.Errorf("%s:%d: %s names %s, which package %s does not declare", doc, i+1, doc, strings.Trim(m[0], "`"), pkg)
				}
			}
		}
		for _, m := range docPath.FindAllStringSubmatch(string(raw), -1) {
			if codeName.MatchString("`" + m[1] + "`") {
				if _, ok := floor[codeName.FindStringSubmatch("`" + m[1] + "`")[1]]; ok {
					continue // pkg/path.Name: a code name, checked above
				}
			}
			if _, err := os.Stat(filepath.Join(root, m[1])); err != nil {
				t.Errorf("%s names %s, which is not there", doc, m[1])
			}
		}
		if doc != "CONTRIBUTING.md" {
			assert.Greater(t, names, 10, "%s names code", doc)
		}
	}
	assert.True(t, decls.has("umd", "CommandList", "Barrier"), "the index finds methods")
	assert.True(t, decls.has("umd", "", "TestBarrierRejections"), "the index finds tests")
	assert.False(t, decls.has("umd", "CommandList", "NoSuchMethod"))
	assert.False(t, decls.has("umd", "", "Barrier"), "a method is not a function")
}

// declIndex knows the top-level declarations of each package directory.
type declIndex struct {
	root string
	once sync.Map // package -> map[string]bool of "Recv.Name" and "Name"
}

func (d *declIndex) has(pkg, recv, name string) bool {
	v, ok := d.once.Load(pkg)
	if !ok {
		v = d.load(pkg)
		d.once.Store(pkg, v)
	}
	key := name
	if recv != "" {
		key = recv + "." + name
	}
	return v.(map[string]bool)[key]
}

func (d *declIndex) load(pkg string) map[string]bool {
	out := map[string]bool{}
	dir := filepath.Join(d.root, pkg)
	entries, _ := os.ReadDir(dir)
	fset := token.NewFileSet()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, decl := range f.Decls {
			switch x := decl.(type) {
			case *ast.FuncDecl:
				if x.Recv == nil || len(x.Recv.List) == 0 {
					out[x.Name.Name] = true
					continue
				}
				t := x.Recv.List[0].Type
				if s, ok := t.(*ast.StarExpr); ok {
					t = s.X
				}
				if g, ok := t.(*ast.IndexExpr); ok {
					t = g.X
				}
				if id, ok := t.(*ast.Ident); ok {
					out[id.Name+"."+x.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range x.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						out[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							out[n.Name] = true
						}
					}
				}
			}
		}
	}
	return out
}

// TestArchitectureFloorsAreTheTable: ARCHITECTURE.md's diagram is the
// floor table (go test ./internal/floors -update rewrites it).
func TestArchitectureFloorsAreTheTable(t *testing.T) {
	byLevel := map[int][]string{}
	for p, l := range floor {
		byLevel[l] = append(byLevel[l], p)
	}
	var levels []int
	for l := range byLevel {
		levels = append(levels, l)
	}
	slices.Sort(levels)
	slices.Reverse(levels)
	var b strings.Builder
	b.WriteString("```\nfloor  packages\n")
	for _, l := range levels {
		ps := byLevel[l]
		slices.Sort(ps)
		fmt.Fprintf(&b, "%3d    %s\n", l, strings.Join(ps, "  "))
	}
	b.WriteString("```\n")
	require.NoError(t, docgen.Check("../../ARCHITECTURE.md", "go test ./internal/floors -update",
		[]docgen.Section{{Name: "floors", Body: b.String()}}, *update))
}

// TestRefreshCoversEveryUpdateFlag: .ci/refresh-goldens passes -update to
// exactly the packages whose tests take it, so one command refreshes every
// golden.
func TestRefreshCoversEveryUpdateFlag(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	var want []string
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(string(src), `flag.Bool("update"`) {
			rel, _ := filepath.Rel(root, filepath.Dir(p))
			if pkg := "./" + filepath.ToSlash(rel); !slices.Contains(want, pkg) {
				want = append(want, pkg)
			}
		}
		return nil
	})
	require.NoError(t, err)
	slices.Sort(want)
	require.Contains(t, want, "./umd", "the walk finds the -update flags")

	script, err := os.ReadFile(filepath.Join(root, ".ci/refresh-goldens"))
	require.NoError(t, err)
	var got []string
	for _, line := range strings.Split(string(script), "\n") {
		if strings.HasPrefix(line, "go test ") && strings.HasSuffix(line, " -update") {
			for _, f := range strings.Fields(line) {
				if strings.HasPrefix(f, "./") {
					got = append(got, f)
				}
			}
		}
	}
	slices.Sort(got)
	assert.Equal(t, want, got, ".ci/refresh-goldens's go test -update line names every package whose tests take -update, and no other")
}

// TestTranslationSectionsNameTheirKeepers: each section of
// docs/translation.md on a field or a kind of barrier (from "## `Type`" to
// the examples) ends with a "**Held by.**" paragraph naming the code that
// holds its rule and the tests that fail if it breaks; TestDocNamesExist
// checks that the names exist.
func TestTranslationSectionsNameTheirKeepers(t *testing.T) {
	raw, err := os.ReadFile("../../docs/translation.md")
	require.NoError(t, err)
	var (
		in       bool
		sections int
		title    string
		body     []string
	)
	finish := func() {
		if !in || title == "" {
			return
		}
		sections++
		last := strings.Join(lastParagraph(body), " ")
		if !strings.HasPrefix(last, "**Held by.**") {
			t.Errorf("docs/translation.md %q does not end with a **Held by.** paragraph", title)
			return
		}
		code, tests := 0, 0
		for _, m := range codeName.FindAllStringSubmatch(last, -1) {
			if _, ok := floor[m[1]]; !ok {
				continue
			}
			if n := m[5]; strings.HasPrefix(n, "Test") || strings.HasPrefix(n, "Example") {
				tests++
			} else {
				code++
			}
		}
		tests += strings.Count(last, "`hlk/suites/")
		assert.Positive(t, code, "docs/translation.md %q: its Held by paragraph names no code", title)
		assert.Positive(t, tests, "docs/translation.md %q: its Held by paragraph names no test", title)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if !strings.HasPrefix(line, "## ") {
			body = append(body, line)
			continue
		}
		finish()
		switch {
		case line == "## `Type`":
			in = true
		case line == "## Examples":
			in = false
		}
		title, body = line, nil
	}
	finish()
	assert.GreaterOrEqual(t, sections, 14, "the field sections are found")
}

// lastParagraph is the last run of non-blank lines.
func lastParagraph(lines []string) []string {
	end := len(lines)
	for end > 0 && strings.TrimSpace(lines[end-1]) == "" {
		end--
	}
	start := end
	for start > 0 && strings.TrimSpace(lines[start-1]) != "" {
		start--
	}
	return lines[start:end]
}
