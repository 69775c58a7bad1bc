package hlk

import (
	"embed"
	"fmt"
	"github.com/ebref/ebref/hlk/gen"
	"github.com/ebref/ebref/hlk/scenario"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
)

// Suite is a named set of cases: a directory of scenario files under
// hlk/suites, or one the package generates from ddi's rule tables.
type Suite struct {
	Name  string
	Cases []*scenario.Scenario
	// Files are the scenario sources by file name, so a failing case
	// can be shown and run on its own (`ebref hlk --emit`).
	Files map[string]string
	// random and seed are the count and first seed of the suite random
	// (RandomSuite), which a report records so a merge can rebuild it.
	random int
	seed   uint64
}

//go:embed all:suites
var suitesFS embed.FS

// Suites loads the default set: every directory of scenario files under
// hlk/suites (a suite per directory, named by its path) and the generated
// suites, with DefaultRandom random programs from DefaultRandomSeed.
func Suites() ([]Suite, error) { return SuitesFor(DefaultRandom, DefaultRandomSeed) }

// SuitesFor is the default set with the suite random made of n programs
// from seed on (no suite random when n is 0): what `ebref hlk --random N
// --seed S` runs, and what a merge rebuilds from a report's record.
func SuitesFor(n int, seed uint64) ([]Suite, error) {
	out, err := loadSuites(suitesFS, "suites", "hlk/")
	if err != nil {
		return nil, err
	}
	for _, g := range gen.Tables {
		s, err := suiteFromSources(g.Name, g.Files())
		if err != nil {
			return nil, fmt.Errorf("hlk: generated suite %s: %w", g.Name, err)
		}
		out = append(out, s)
	}
	if n == 0 {
		return out, nil
	}
	r, err := RandomSuite(n, seed)
	if err != nil {
		return nil, err
	}
	out = append(out, r)
	lr, err := LegacyRandomSuite(max(1, n/gen.LegacyShare), seed)
	if err != nil {
		return nil, err
	}
	vr, err := ValidationRandomSuite(max(1, n/gen.LegacyShare), seed)
	if err != nil {
		return nil, err
	}
	return append(out, lr, vr), nil
}

// LoadSuites reads every .ebs file under root in fsys, one suite per
// directory. Files whose names start with _ are includes, not cases.
func LoadSuites(fsys fs.FS, root string) ([]Suite, error) { return loadSuites(fsys, root, "") }

// loadSuites is LoadSuites with positions named as at prefix+path: the
// embedded suites' as the repository holds them (hlk/suites/...), so a
// failure's position is a path that exists from the repository's root.
func loadSuites(fsys fs.FS, root, prefix string) ([]Suite, error) {
	byDir := map[string]map[string]string{}
	includes := map[string]map[string]string{}
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ebs") {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		dir := strings.TrimPrefix(path.Dir(p), root+"/")
		m := byDir
		if strings.HasPrefix(d.Name(), "_") {
			m = includes
		}
		if m[dir] == nil {
			m[dir] = map[string]string{}
		}
		m[dir][p] = string(b)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []Suite
	for _, d := range slices.Sorted(maps.Keys(byDir)) {
		s := Suite{Name: d, Files: map[string]string{}}
		for _, f := range slices.Sorted(maps.Keys(byDir[d])) {
			cases, err := scenario.Parse(prefix+f, byDir[d][f], func(p string) (string, error) {
				b, err := fs.ReadFile(fsys, strings.TrimPrefix(p, prefix))
				return string(b), err
			})
			if err != nil {
				return nil, err
			}
			for _, c := range cases {
				c.File = path.Base(f) // the suite names the directory
			}
			s.Cases = append(s.Cases, cases...)
			s.Files[path.Base(f)] = byDir[d][f]
		}
		for f, text := range includes[d] {
			s.Files[path.Base(f)] = text
		}
		out = append(out, s)
	}
	return out, nil
}

// suiteFromSources parses generated files.
func suiteFromSources(name string, files map[string]string) (Suite, error) {
	s := Suite{Name: name, Files: files}
	for _, f := range slices.Sorted(maps.Keys(files)) {
		cases, err := scenario.Parse(f, files[f], nil)
		if err != nil {
			return s, err
		}
		s.Cases = append(s.Cases, cases...)
	}
	return s, nil
}
