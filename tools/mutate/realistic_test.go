package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCatalogueApplies: every bug of the realistic catalogue has a class,
// applies to the tree as it is (each block's text occurs once) and leaves
// Go that parses; compiling and running them is tools/mutate --realistic's.
func TestCatalogueApplies(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	bugs, err := loadCatalogue(filepath.Join(root, "tools", "mutate", "realistic"))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(bugs), 20, "the catalogue holds at least 20 bugs")
	for _, b := range bugs {
		assert.NotEmpty(t, b.Note, "%s says what the bug does", b.Name)
		repl, err := b.apply(root)
		if !assert.NoError(t, err, b.Name) {
			continue
		}
		for path, src := range repl {
			orig, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.NotEqual(t, string(orig), string(src), "%s changes %s", b.Name, path)
			_, err = parser.ParseFile(token.NewFileSet(), path, src, 0)
			assert.NoError(t, err, "%s leaves %s Go", b.Name, path)
		}
	}
}

// TestParseBug: the format's errors name the file and line.
func TestParseBug(t *testing.T) {
	b, err := parseBug("x.bug", []byte("class: a class\nwhat it does\n\n--- a/b.go\n<<<\nold\n===\nnew\n>>>\n"))
	require.NoError(t, err)
	assert.Equal(t, "a class", b.Class)
	assert.Equal(t, "what it does", b.Note)
	assert.Equal(t, []edit{{File: "a/b.go", Old: "old", New: "new", Line: 5}}, b.Edits)
	for src, want := range map[string]string{
		"--- a.go\n<<<\nx\n===\ny\n>>>\n":         "no class",
		"class: c\n":                              "no edit",
		"class: c\n<<<\nx\n===\ny\n>>>\n":         "x.bug:2: <<< before any --- FILE",
		"class: c\n--- a.go\n<<<\nx\n===\ny\n":    "x.bug:3: a <<< block without",
		"class: c\n--- ../a.go\n<<<\nx\n===\n>>>": "x.bug:2: a file section names a path inside",
	} {
		_, err := parseBug("x.bug", []byte(src))
		if assert.Error(t, err, src) {
			assert.True(t, strings.Contains(err.Error(), want), "%q: %v", src, err)
		}
	}
}
