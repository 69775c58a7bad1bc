package scenario

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/ddi/debug"
	"github.com/ebref/ebref/ddi/legacy"
	"github.com/ebref/ebref/hlk/driver"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
)

// Reading a scenario file: lex it, splice its includes, split it into
// sections (`scenario "title"`; the lines before the first are every
// section's setup), expand each section's parameters into cases, parse each
// case. The grammar is in docs/scenarios.md.

// The limits a scenario file can hit (docs/conformance.md "Limits"), so a
// hostile file costs bounded time and memory:
//
//   - maxIncludeDepth bounds include nesting (and catches include cycles);
//   - maxLines bounds the lines a file has with its includes spliced in
//     (nesting alone does not: five files each including the next fifty
//     times are 50^5 lines);
//   - maxCases bounds the cases one section's parameters make, and
//     maxFileCases those of the whole file;
//   - maxCaseLines bounds the lines parsed over all cases (each case
//     parses its section's lines once), maxCaseTokens their tokens and
//     maxCaseBytes their text once parameters are substituted (lines
//     alone do not: a line may hold thousands of tokens, a value may be
//     100 KB); maxTokenBytes bounds one token's text so substituted.
const (
	maxIncludeDepth = 16
	maxLines        = 100_000
	maxCases        = 4096
	maxFileCases    = 16_384
	maxCaseLines    = 4_000_000
	maxCaseTokens   = 1_000_000
	maxCaseBytes    = 64 << 20
	maxTokenBytes   = 64 << 10
)

// LoadFile reads the scenario file at name in fsys, its includes resolved
// relative to it, and returns its cases.
func LoadFile(fsys fs.FS, name string) ([]*Scenario, error) {
	src, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	return Parse(name, string(src), func(p string) (string, error) {
		b, err := fs.ReadFile(fsys, p)
		return string(b), err
	})
}

// Parse reads the scenario source of a file named name; include opens the
// files it includes (paths relative to fsys's root, already joined with the
// including file's directory), nil to forbid includes.
func Parse(name, src string, include func(string) (string, error)) ([]*Scenario, error) {
	total := 0
	lines, err := readLines(name, src, include, 0, &total)
	if err != nil {
		return nil, err
	}
	var prelude []line
	type section struct {
		title string
		pos   Pos
		lines []line
	}
	var sections []section
	for _, l := range lines {
		if l.toks[0].kind == tWord && l.toks[0].text == "scenario" {
			c := &cursor{toks: l.toks[1:], end: l.pos}
			title, err := c.str("a scenario title in quotes")
			if err != nil {
				return nil, err
			}
			if err := c.done(); err != nil {
				return nil, err
			}
			sections = append(sections, section{title: title, pos: l.pos})
			continue
		}
		if len(sections) == 0 {
			prelude = append(prelude, l)
		} else {
			s := &sections[len(sections)-1]
			s.lines = append(s.lines, l)
		}
	}
	if len(sections) == 0 {
		sections = []section{{}}
	}
	var out []*Scenario
	caseLines := 0
	b := newBudget()
	for _, s := range sections {
		body := append(append([]line(nil), prelude...), s.lines...)
		params, rest, err := extractParams(body)
		if err != nil {
			return nil, err
		}
		n := 1
		for _, p := range params {
			if n *= len(p.values); n > maxCases {
				return nil, &ParseError{p.pos, fmt.Sprintf("the parameters make more than %d cases", maxCases)}
			}
		}
		switch {
		case len(out)+n > maxFileCases:
			return nil, &ParseError{s.pos, fmt.Sprintf("the file makes more than %d cases", maxFileCases)}
		case caseLines+n*len(rest) > maxCaseLines:
			return nil, &ParseError{s.pos, fmt.Sprintf("the file's cases have more than %d lines in all", maxCaseLines)}
		}
		caseLines += n * len(rest)
		for _, values := range product(params) {
			sc, err := parseCase(name, s.title, params, values, rest, b)
			if err != nil {
				return nil, err
			}
			out = append(out, sc)
		}
	}
	if budgetSpent != nil {
		budgetSpent(maxCaseTokens-b.tokens, maxCaseBytes-b.bytes)
	}
	return out, nil
}

// readLines lexes a file and splices its includes in; total counts the
// lines so far, against maxLines.
func readLines(name, src string, include func(string) (string, error), depth int, total *int) ([]line, error) {
	lines, err := lex(name, src)
	if err != nil {
		return nil, err
	}
	var out []line
	for _, l := range lines {
		if l.toks[0].kind != tWord || l.toks[0].text != "include" {
			if *total++; *total > maxLines {
				return nil, &ParseError{l.pos, fmt.Sprintf("the file and its includes have more than %d lines", maxLines)}
			}
			out = append(out, l)
			continue
		}
		c := &cursor{toks: l.toks[1:], end: l.pos}
		p, err := c.str("a file name in quotes")
		if err != nil {
			return nil, err
		}
		if err := c.done(); err != nil {
			return nil, err
		}
		switch {
		case include == nil:
			return nil, &ParseError{l.pos, "include is not available here"}
		case path.IsAbs(p):
			return nil, &ParseError{l.toks[1].pos, fmt.Sprintf("cannot include %q: include paths are relative to the including file", p)}
		case depth >= maxIncludeDepth:
			return nil, &ParseError{l.pos, fmt.Sprintf("includes nest deeper than %d (a cycle?)", maxIncludeDepth)}
		}
		full := path.Join(path.Dir(name), p)
		text, err := include(full)
		if err != nil {
			return nil, &ParseError{l.toks[1].pos, fmt.Sprintf("cannot include %q: %v", p, err)}
		}
		inc, err := readLines(full, text, include, depth+1, total)
		if err != nil {
			return nil, err
		}
		out = append(out, inc...)
	}
	return out, nil
}

// paramDecl is a `param NAME V...` line.
type paramDecl struct {
	name   string
	values []string
	pos    Pos
}

func extractParams(lines []line) ([]paramDecl, []line, error) {
	var ps []paramDecl
	var rest []line
	for _, l := range lines {
		if l.toks[0].kind != tWord || l.toks[0].text != "param" {
			rest = append(rest, l)
			continue
		}
		c := &cursor{toks: l.toks[1:], end: l.pos}
		n, err := c.word("a parameter name")
		if err != nil {
			return nil, nil, err
		}
		var vs []string
		for c.more() {
			t := c.next()
			vs = append(vs, t.text)
		}
		if len(vs) == 0 {
			return nil, nil, &ParseError{l.pos, fmt.Sprintf("param %s needs at least one value", n)}
		}
		for _, p := range ps {
			if p.name == n {
				return nil, nil, &ParseError{l.pos, fmt.Sprintf("param %s is declared twice (first at %s)", n, p.pos)}
			}
		}
		ps = append(ps, paramDecl{n, vs, l.pos})
	}
	return ps, rest, nil
}

// product lists every combination of parameter values, the first
// parameter varying slowest.
func product(ps []paramDecl) [][]string {
	out := [][]string{nil}
	for _, p := range ps {
		var next [][]string
		for _, prefix := range out {
			for _, v := range p.values {
				next = append(next, append(append([]string(nil), prefix...), v))
			}
		}
		out = next
	}
	return out
}

// budget is what a file's cases may still cost to parse, over all of
// them: tokens, and bytes of token text once parameters are substituted
// (a 100 KB value used 20,000 times is 2 GB of text from a 175 KB file).
type budget struct{ tokens, bytes int }

func newBudget() *budget { return &budget{maxCaseTokens, maxCaseBytes} }

// budgetSpent, for a test, is the most any file of the default suites
// took of the budget.
var budgetSpent func(tokens, bytes int)

// take charges one case's token, or says which bound it passes.
func (b *budget) take(t token) error {
	b.tokens--
	b.bytes -= len(t.text)
	switch {
	case b.tokens < 0:
		return &ParseError{t.pos, fmt.Sprintf("the file's cases have more than %d tokens in all", maxCaseTokens)}
	case b.bytes < 0:
		return &ParseError{t.pos, fmt.Sprintf("the file's cases have more than %d bytes of text in all once parameters are substituted", maxCaseBytes)}
	}
	return nil
}

// substitute replaces ${NAME} in every word, number and string token, in
// one pass: a value is never scanned for references again. used says which
// parameters it replaced.
func substitute(lines []line, params []paramDecl, values []string, used []bool, b *budget) ([]line, error) {
	out := make([]line, len(lines))
	for i, l := range lines {
		toks := make([]token, len(l.toks))
		for j, t := range l.toks {
			if t.kind == tWord || t.kind == tNumber || t.kind == tString {
				text, err := expand(t, params, values, used)
				if err != nil {
					return nil, err
				}
				if k := strings.Index(text, "${"); k >= 0 && t.kind != tString && text != t.text {
					ref, _, _ := strings.Cut(text[k:], "}")
					return nil, &ParseError{t.pos, fmt.Sprintf("%s: a parameter's value holds %s}, and values are not substituted again", t.text, ref)}
				}
				t.text = text
				if t.kind == tWord && t.text != "" && isDigit(t.text[0]) {
					t.kind = tNumber
				}
			}
			if err := b.take(t); err != nil {
				return nil, err
			}
			toks[j] = t
		}
		out[i] = line{toks: toks, pos: l.pos}
	}
	return out, nil
}

// expand substitutes a token's ${NAME} references. In a string, ${ that
// names no parameter is text; elsewhere it is an error.
func expand(t token, params []paramDecl, values []string, used []bool) (string, error) {
	text := t.text
	if !strings.Contains(text, "${") {
		return text, nil
	}
	var out strings.Builder
	for {
		i := strings.Index(text, "${")
		if i < 0 {
			out.WriteString(text)
			break
		}
		out.WriteString(text[:i])
		end := strings.IndexByte(text[i:], '}')
		k := -1
		if end >= 0 {
			k = slices.IndexFunc(params, func(p paramDecl) bool { return p.name == text[i+2:i+end] })
		}
		switch {
		case k >= 0:
			used[k] = true
			out.WriteString(values[k])
			text = text[i+end+1:]
		case t.kind == tString:
			out.WriteString("${")
			text = text[i+2:]
		case end < 0:
			return "", &ParseError{t.pos, fmt.Sprintf("%s: ${ without its closing }", t.text)}
		default:
			return "", &ParseError{t.pos, fmt.Sprintf("%s names no parameter", t.text)}
		}
		if out.Len() > maxTokenBytes {
			return "", &ParseError{t.pos, fmt.Sprintf("a token of more than %d bytes once parameters are substituted", maxTokenBytes)}
		}
	}
	return out.String(), nil
}

// parseCase parses one case's lines, its title and lines' parameters
// substituted.
func parseCase(file, title string, params []paramDecl, values []string, lines []line, b *budget) (*Scenario, error) {
	used := make([]bool, len(params))
	// The title is a string like any other.
	t, err := substitute([]line{{toks: []token{{kind: tString, text: title}}}}, params, values, used, b)
	if err != nil {
		return nil, err
	}
	title = t[0].toks[0].text
	if lines, err = substitute(lines, params, values, used, b); err != nil {
		return nil, err
	}
	for k, p := range params {
		if !used[k] {
			return nil, &ParseError{p.pos, fmt.Sprintf("param %s is never used (write ${%s} where its value goes)", p.name, p.name)}
		}
	}
	sc := &Scenario{File: file, Title: title}
	for k, p := range params {
		sc.Params = append(sc.Params, Param{p.name, values[k]})
	}
	p := &parser{sc: sc, names: map[string]string{}, resets: map[string]int{}, budget: b}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		c := &cursor{toks: l.toks, end: l.pos}
		kw := c.next()
		if kw.kind != tWord {
			return nil, &ParseError{kw.pos, fmt.Sprintf("expected a statement, found %s", kw)}
		}
		if kw.text == "list" || kw.text == "reset" {
			end, err := p.list(kw, c, lines, i)
			if err != nil {
				return nil, err
			}
			i = end
			continue
		}
		if err := p.statement(kw, c); err != nil {
			return nil, err
		}
	}
	return sc, nil
}

// parser builds a Scenario; names records what each declared name is, so
// a statement naming the wrong kind of object is caught here.
type parser struct {
	sc     *Scenario
	names  map[string]string // name → "heap", "resource", "queue", "fence", "list"
	resets map[string]int    // list name → how many times it was reset
	budget *budget           // the file's, charged for bytes a fill makes too
}

// bytes parses hex bytes or a fill, charging what a fill makes (up to
// 16 MiB from a few tokens) to the file's budget.
func (p *parser) bytes(c *cursor) ([]byte, error) {
	pos := c.endPos()
	if t, ok := c.peek(); ok {
		pos = t.pos
	}
	data, err := c.bytes()
	if err != nil {
		return nil, err
	}
	if p.budget != nil {
		if p.budget.bytes -= len(data); p.budget.bytes < 0 {
			return nil, &ParseError{pos, fmt.Sprintf("the file's cases have more than %d bytes of text in all once parameters are substituted (fill's bytes count)", maxCaseBytes)}
		}
	}
	return data, nil
}

func (p *parser) declare(t token, kind string) error {
	if k, ok := p.names[t.text]; ok {
		return &ParseError{t.pos, fmt.Sprintf("%s is already declared as a %s", t.text, k)}
	}
	if reserved[t.text] {
		return &ParseError{t.pos, fmt.Sprintf("%s is a keyword and cannot name a %s", t.text, kind)}
	}
	p.names[t.text] = kind
	return nil
}

// named reads a name declared as kind.
func (p *parser) named(c *cursor, what, kind string) (string, error) {
	t, err := c.wordTok(what)
	if err != nil {
		return "", err
	}
	return t.text, p.ref(t, kind)
}

// ref checks that a name was declared as kind.
func (p *parser) ref(t token, kind string) error {
	k, ok := p.names[t.text]
	switch {
	case !ok:
		return &ParseError{t.pos, fmt.Sprintf("no %s is named %s", kind, t.text)}
	case k != kind:
		return &ParseError{t.pos, fmt.Sprintf("%s is a %s, not a %s", t.text, k, kind)}
	}
	return nil
}

// reserved are the words that cannot name objects: NULL, end, all, and
// the role keywords of work commands.
var reserved = func() map[string]bool {
	m := map[string]bool{"NULL": true, "end": true, "all": true, "box": true}
	for _, roles := range commandRoles {
		for _, r := range roles {
			m[r] = true
		}
	}
	return m
}()

func (p *parser) statement(kw token, c *cursor) error {
	sc := p.sc
	switch kw.text {
	case "profiles":
		for c.more() {
			t := c.next()
			if _, err := hwmodel.LookupProfile(t.text); err != nil {
				return &ParseError{t.pos, fmt.Sprintf("no profile %s (have %s)", t.text, strings.Join(hwmodel.ProfileNames(), ", "))}
			}
			sc.Profiles = append(sc.Profiles, t.text)
		}
		if len(sc.Profiles) == 0 {
			return &ParseError{kw.pos, "profiles needs at least one profile name"}
		}
		return nil
	case "require":
		for c.more() {
			t := c.next()
			if _, ok := Features[t.text]; !ok {
				return &ParseError{t.pos, fmt.Sprintf("no feature %s (have %s)", t.text, strings.Join(featureNames(), ", "))}
			}
			sc.Requires = append(sc.Requires, t.text)
		}
		return nil
	case "debug":
		sc.Debug = true
		return c.done()
	case "heap":
		return p.heap(kw, c)
	case "query-heap":
		return p.queryHeap(kw, c)
	case "buffer", "texture":
		return p.resource(kw, c)
	case "queue":
		t, err := c.wordTok("a queue name")
		if err != nil {
			return err
		}
		typ, err := c.listType()
		if err != nil {
			return err
		}
		if typ == ddi.CommandListTypeBundle {
			return &ParseError{kw.pos, "there are no bundle queues"}
		}
		if err := p.declare(t, "queue"); err != nil {
			return err
		}
		sc.Steps = append(sc.Steps, &QueueStep{kw.pos, t.text, typ})
		return c.done()
	case "fence":
		t, err := c.wordTok("a fence name")
		if err != nil {
			return err
		}
		if err := p.declare(t, "fence"); err != nil {
			return err
		}
		sc.Steps = append(sc.Steps, &FenceStep{kw.pos, t.text})
		return c.done()
	case "execute":
		q, err := p.named(c, "a queue name", "queue")
		if err != nil {
			return err
		}
		st := &ExecuteStep{Pos: kw.pos, Queue: q}
		for c.more() {
			t := c.next()
			if err := p.ref(t, "list"); err != nil {
				return err
			}
			st.Lists = append(st.Lists, t.text)
		}
		if len(st.Lists) == 0 {
			return &ParseError{c.endPos(), "expected the names of the lists to execute"}
		}
		sc.Steps = append(sc.Steps, st)
		return nil
	case "wait-idle":
		sc.Steps = append(sc.Steps, &WaitIdleStep{kw.pos})
		return c.done()
	case "destroy":
		t, err := c.wordTok("the name of a resource, heap or list")
		if err != nil {
			return err
		}
		kind := p.names[t.text]
		if kind != "resource" && kind != "heap" && kind != "list" {
			if err := p.ref(t, "resource, heap or list"); err != nil {
				return err
			}
		}
		sc.Steps = append(sc.Steps, &DestroyStep{kw.pos, t.text, kind})
		return c.done()
	case "signal", "wait":
		q, err := p.named(c, "a queue name", "queue")
		if err != nil {
			return err
		}
		f, err := p.named(c, "a fence name", "fence")
		if err != nil {
			return err
		}
		v, err := c.uint("a fence value")
		if err != nil {
			return err
		}
		sc.Steps = append(sc.Steps, &FenceOpStep{kw.pos, kw.text == "wait", q, f, v})
		return c.done()
	case "write":
		t, err := p.named(c, "a buffer name", "resource")
		if err != nil {
			return err
		}
		off, err := c.uint("a byte offset")
		if err != nil {
			return err
		}
		if c.keyword("fill") {
			v, n, err := c.fillArgs()
			if err != nil {
				return err
			}
			sc.Steps = append(sc.Steps, &WriteStep{kw.pos, t, off, []byte{v}, n})
			return c.done()
		}
		data, err := p.bytes(c)
		if err != nil {
			return err
		}
		sc.Steps = append(sc.Steps, &WriteStep{kw.pos, t, off, data, 0})
		return nil
	case "expect":
		return p.expect(kw, c)
	case "end":
		return &ParseError{kw.pos, "end without a list or call to end"}
	}
	return &ParseError{kw.pos, fmt.Sprintf("unknown statement %s: expected one of %s", kw.text, strings.Join(statementNames, ", "))}
}

var statementNames = []string{"scenario", "include", "param", "profiles", "require", "debug", "heap", "query-heap", "buffer", "texture",
	"queue", "fence", "list", "reset", "execute", "signal", "wait", "write", "expect"}

// queryHeap parses `query-heap NAME TYPE COUNT`.
func (p *parser) queryHeap(kw token, c *cursor) error {
	t, err := c.wordTok("a query heap name")
	if err != nil {
		return err
	}
	v, err := c.enum("a query heap type (OCCLUSION, TIMESTAMP)", func(s string) (uint64, error) {
		q, err := ddi.ParseQueryHeapType(s)
		return uint64(q), err
	})
	if err != nil {
		return err
	}
	n, err := c.uintMax("a query count", 1<<20)
	if err != nil {
		return err
	}
	if err := p.declare(t, "query heap"); err != nil {
		return err
	}
	p.sc.Steps = append(p.sc.Steps, &QueryHeapStep{kw.pos, t.text, ddi.QueryHeapType(v), uint32(n)})
	return c.done()
}

// queryCommand parses `begin-query HEAP TYPE INDEX`, `end-query HEAP TYPE
// INDEX` and `resolve-query HEAP TYPE START COUNT DST OFFSET`.
func (p *parser) queryCommand(cmd Cmd, c *cursor) (Cmd, error) {
	var err error
	if cmd.Query, err = p.named(c, "a query heap name", "query heap"); err != nil {
		return cmd, err
	}
	v, err := c.enum("a query type (OCCLUSION, BINARY_OCCLUSION, TIMESTAMP)", func(s string) (uint64, error) {
		q, err := ddi.ParseQueryType(s)
		return uint64(q), err
	})
	if err != nil {
		return cmd, err
	}
	cmd.Op2 = v
	what := []string{"the query's index"}
	if cmd.Op == "resolve-query" {
		what = []string{"the first query's index", "the number of queries"}
	}
	for _, w := range what {
		n, err := c.uint32(w)
		if err != nil {
			return cmd, err
		}
		cmd.Args = append(cmd.Args, n)
	}
	if cmd.Op == "resolve-query" {
		dst, err := p.view(c)
		if err != nil {
			return cmd, err
		}
		cmd.Views["0"] = []ViewRef{dst}
		off, err := c.uint("the destination offset")
		if err != nil {
			return cmd, err
		}
		cmd.Args = append(cmd.Args, off)
	}
	return cmd, c.done()
}

func (p *parser) heap(kw token, c *cursor) error {
	t, err := c.wordTok("a heap name")
	if err != nil {
		return err
	}
	kind, err := c.heapKind()
	if err != nil {
		return err
	}
	size, err := c.uint("the heap's size in bytes")
	if err != nil {
		return err
	}
	if err := p.declare(t, "heap"); err != nil {
		return err
	}
	p.sc.Steps = append(p.sc.Steps, &HeapStep{kw.pos, t.text, kind, size})
	return c.done()
}

// resource parses `buffer NAME SIZE [opts]` and `texture NAME WxH[xD] [opts]`.
func (p *parser) resource(kw token, c *cursor) error {
	t, err := c.wordTok("a resource name")
	if err != nil {
		return err
	}
	st := &ResourceStep{Pos: kw.pos, Name: t.text, Kind: resource.HeapDefault}
	var alignAt token // the align option, if any
	d := &st.Desc
	if kw.text == "buffer" {
		size, err := c.uint("the buffer's size in bytes")
		if err != nil {
			return err
		}
		*d = driver.BufferDesc(size, 0)
	} else {
		dt, err := c.next1("the texture's size, WxH or WxHxD")
		if err != nil {
			return err
		}
		dims, err := parseDims(dt)
		if err != nil {
			return err
		}
		*d = driver.Texture2DDesc(ddi.FormatR8G8B8A8Unorm, uint32(dims[0]), uint32(dims[1]), 1, 1, 0, ddi.LayoutCommon)
		switch len(dims) {
		case 1:
			d.ResourceType, d.Height = ddi.ResourceTypeTexture1D, 1
		case 3:
			d.ResourceType, d.DepthOrArraySize = ddi.ResourceTypeTexture3D, uint16(dims[2])
		}
	}
	for c.more() {
		opt := c.next()
		var err error
		switch {
		case opt.text == "flags":
			var v uint64
			v, err = c.enum("resource flags (e.g. RENDER_TARGET|SHADER_RESOURCE)", func(s string) (uint64, error) {
				f, err := ddi.ParseResourceFlags(s)
				return uint64(f), err
			})
			d.Flags = ddi.ResourceFlags(v)
		case opt.text == "in":
			st.Kind, err = c.heapKind()
		case opt.text == "align":
			alignAt = opt
			at, _ := c.peek()
			st.Align, err = c.uintMax("an alignment in bytes", resource.MSAAPlacementAlignment)
			if err == nil && (st.Align == 0 || st.Align&(st.Align-1) != 0) {
				err = &ParseError{at.pos, fmt.Sprintf("alignment %d is not a power of two (D3D12 places resources at 4096, 65536 or 4194304)", st.Align)}
			}
		case opt.text == "at":
			if st.Heap, err = p.named(c, "a heap name", "heap"); err == nil {
				st.Offset, err = c.uint("the offset in the heap")
			}
		case kw.text == "texture" && opt.text == "format":
			var v uint64
			v, err = c.enum("a DXGI format (e.g. R8G8B8A8_UNORM)", func(s string) (uint64, error) {
				f, err := ddi.ParseFormat(s)
				return uint64(f), err
			})
			d.Format = ddi.Format(v)
		case kw.text == "texture" && opt.text == "mips":
			var v uint64
			v, err = c.uintMax("a mip count", 0xffff)
			d.MipLevels = uint16(v)
		case kw.text == "texture" && opt.text == "array":
			var v uint64
			v, err = c.uintMax("an array size", 0xffff)
			d.DepthOrArraySize = uint16(v)
		case kw.text == "texture" && opt.text == "samples":
			var v uint64
			v, err = c.uint32("a sample count")
			d.SampleDesc.Count = uint32(v)
		case opt.text == "layout": // a buffer's must be UNDEFINED, which is the default
			if st.HasState {
				return &ParseError{opt.pos, "a resource has a layout or a legacy state, not both"}
			}
			d.InitialBarrierLayout, err = c.layout()
			st.HasLayout = true
		case opt.text == "state":
			if st.HasLayout {
				return &ParseError{opt.pos, "a resource has a layout or a legacy state, not both"}
			}
			at, _ := c.peek()
			if st.State, err = c.states(); err == nil {
				if _, lerr := ddi.LegacyEquivalent(st.State, kw.text == "texture"); lerr != nil {
					err = &ParseError{at.pos, fmt.Sprintf("a %s cannot be created in it: %v", kw.text, lerr)}
				}
			}
			st.HasState = true
		default:
			what := "flags, layout, state, in, at, align"
			if kw.text == "texture" {
				what = "format, mips, array, samples, flags, layout, state, in, at, align"
			}
			return &ParseError{opt.pos, fmt.Sprintf("unknown %s option %s: expected one of %s", kw.text, opt.text, what)}
		}
		if err != nil {
			return err
		}
	}
	if st.Align != 0 && st.Heap == "" {
		return &ParseError{alignAt.pos, "align is a placed resource's: give the heap and offset too (at HEAP OFFSET)"}
	}
	if err := p.declare(t, "resource"); err != nil {
		return err
	}
	p.sc.Steps = append(p.sc.Steps, st)
	return nil
}

// list parses `list NAME TYPE` or `reset NAME` and the commands up to
// `end`; it returns the index of the end line.
func (p *parser) list(kw token, c *cursor, lines []line, i int) (int, error) {
	start := lines[i].pos
	t, err := c.wordTok("a command list name")
	if err != nil {
		return 0, err
	}
	st := &ListStep{Pos: start, Name: t.text, Recording: t.text}
	if kw.text == "reset" {
		if err := p.ref(t, "list"); err != nil {
			return 0, err
		}
		p.resets[t.text]++
		st.Reset = true
		st.Recording = fmt.Sprintf("%s#%d", t.text, p.resets[t.text]+1)
	} else {
		if st.Type, err = c.listType(); err != nil {
			return 0, err
		}
		if c.keyword("flags") {
			v, err := c.enum("command list flags (ALLOW_EXTENDED_ASYNC)", func(s string) (uint64, error) {
				f, err := ddi.ParseCommandListFlags(s)
				return uint64(f), err
			})
			if err != nil {
				return 0, err
			}
			st.Flags = ddi.CommandListFlags(v)
		}
	}
	if err := c.done(); err != nil {
		return 0, err
	}
	if !st.Reset {
		if err := p.declare(t, "list"); err != nil {
			return 0, err
		}
	}
	for i++; i < len(lines); i++ {
		l := lines[i]
		c := &cursor{toks: l.toks, end: l.pos}
		kw := c.next()
		switch {
		case kw.kind != tWord:
			return 0, &ParseError{kw.pos, fmt.Sprintf("expected a command, found %s", kw)}
		case kw.text == "end":
			if err := c.done(); err != nil {
				return 0, err
			}
			p.sc.Steps = append(p.sc.Steps, st)
			return i, nil
		case kw.text == "call" || kw.text == "call-0088":
			if err := c.done(); err != nil {
				return 0, err
			}
			v0088 := kw.text == "call-0088"
			cmd := Cmd{Pos: kw.pos, Op: "barrier", DDI0088: v0088}
			for i++; ; i++ {
				if i >= len(lines) {
					return 0, &ParseError{kw.pos, kw.text + " without end"}
				}
				bc := &cursor{toks: lines[i].toks, end: lines[i].pos}
				first, _ := bc.peek()
				if first.kind == tWord && first.text == "end" {
					bc.next()
					if err := bc.done(); err != nil {
						return 0, err
					}
					break
				}
				if first.kind == tWord && first.text == "barrier" {
					bc.next()
				}
				b, err := p.barrier(bc, v0088)
				if err != nil {
					return 0, err
				}
				cmd.Barriers = append(cmd.Barriers, b)
			}
			st.Cmds = append(st.Cmds, cmd)
		case kw.text == "resource-barrier":
			b, err := p.legacyBarrier(c)
			if err != nil {
				return 0, err
			}
			st.Cmds = append(st.Cmds, Cmd{Pos: kw.pos, Op: "resource-barrier", Legacy: []LegacySpec{b}})
		case kw.text == "resource-barriers":
			if err := c.done(); err != nil {
				return 0, err
			}
			cmd := Cmd{Pos: kw.pos, Op: "resource-barrier"}
			for i++; ; i++ {
				if i >= len(lines) {
					return 0, &ParseError{kw.pos, "resource-barriers without end"}
				}
				bc := &cursor{toks: lines[i].toks, end: lines[i].pos}
				if first, _ := bc.peek(); first.kind == tWord && first.text == "end" {
					bc.next()
					if err := bc.done(); err != nil {
						return 0, err
					}
					break
				}
				b, err := p.legacyBarrier(bc)
				if err != nil {
					return 0, err
				}
				cmd.Legacy = append(cmd.Legacy, b)
			}
			st.Cmds = append(st.Cmds, cmd)
		case kw.text == "barrier" || kw.text == "barrier-0088":
			v0088 := kw.text == "barrier-0088"
			b, err := p.barrier(c, v0088)
			if err != nil {
				return 0, err
			}
			st.Cmds = append(st.Cmds, Cmd{Pos: kw.pos, Op: "barrier", DDI0088: v0088, Barriers: []BarrierSpec{b}})
		case kw.text == "barriers":
			if err := c.done(); err != nil {
				return 0, err
			}
			st.Cmds = append(st.Cmds, Cmd{Pos: kw.pos, Op: "barrier"}) // a call of no barriers
		default:
			cmd, err := p.command(kw, c)
			if err != nil {
				return 0, err
			}
			st.Cmds = append(st.Cmds, cmd)
		}
	}
	return 0, &ParseError{start, fmt.Sprintf("%s %s without end", kw.text, t.text)}
}

// legacyBarrier parses one legacy barrier: `transition RES BEFORE -> AFTER
// [subresource N] [begin|end]`, `uav RES|NULL`, `aliasing RES|NULL
// RES|NULL`.
func (p *parser) legacyBarrier(c *cursor) (LegacySpec, error) {
	kw, err := c.wordTok("a resource barrier type (transition, uav, aliasing)")
	if err != nil {
		return LegacySpec{}, err
	}
	b := LegacySpec{Pos: kw.pos}
	resource := func() (string, error) {
		t, err := c.wordTok("a resource name or NULL")
		if err != nil || t.text == "NULL" {
			return "", err
		}
		return t.text, p.ref(t, "resource")
	}
	switch kw.text {
	case "transition":
		t, err := c.wordTok("a resource name")
		if err != nil {
			return b, err
		}
		if err := p.ref(t, "resource"); err != nil {
			return b, err
		}
		b.Res = t.text
		b.Barrier = legacy.Transition(0, legacy.AllSubresources, 0, 0)
		if b.Barrier.StateBefore, err = c.states(); err != nil {
			return b, err
		}
		if _, err := c.punct("->"); err != nil {
			return b, err
		}
		if b.Barrier.StateAfter, err = c.states(); err != nil {
			return b, err
		}
		for c.more() {
			opt := c.next()
			switch {
			case opt.text == "subresource":
				v, err := c.uint32("a subresource index")
				if err != nil {
					return b, err
				}
				b.Barrier.Subresource = uint32(v)
			case opt.text == "begin" && b.Barrier.Flags == legacy.FlagNone:
				b.Barrier.Flags = legacy.FlagBeginOnly
			case opt.text == "end" && b.Barrier.Flags == legacy.FlagNone:
				b.Barrier.Flags = legacy.FlagEndOnly
			default:
				return b, &ParseError{opt.pos, fmt.Sprintf("expected subresource N, begin or end (once), found %s", opt)}
			}
		}
		return b, nil
	case "uav":
		b.Barrier = legacy.UAV(0)
		if b.Res, err = resource(); err != nil {
			return b, err
		}
	case "aliasing":
		b.Barrier = legacy.Aliasing(0, 0)
		if b.Before, err = resource(); err != nil {
			return b, err
		}
		if b.After, err = resource(); err != nil {
			return b, err
		}
	default:
		return b, &ParseError{kw.pos, fmt.Sprintf("unknown resource barrier type %s: expected transition, uav or aliasing", kw.text)}
	}
	return b, c.done()
}

// barrier parses one barrier: `texture RES fields`, `buffer RES fields`,
// `global fields`, `ranged RES|NULL fields`, `type N`. In a 0088 call a
// ranged barrier has the 0088 members (sync, access, subresources).
func (p *parser) barrier(c *cursor, v0088 bool) (BarrierSpec, error) {
	kw, err := c.wordTok("a barrier type (global, texture, buffer, ranged)")
	if err != nil {
		return BarrierSpec{}, err
	}
	b := BarrierSpec{Pos: kw.pos}
	var typ ddi.BarrierType
	switch kw.text {
	case "global":
		typ = ddi.BarrierTypeGlobal
	case "texture":
		typ = ddi.BarrierTypeTexture
	case "buffer":
		typ = ddi.BarrierTypeBuffer
	case "ranged":
		typ = ddi.BarrierTypeRanged
	case "type":
		v, err := c.uint32("a barrier type value")
		if err != nil {
			return b, err
		}
		b.Barrier.Type = ddi.BarrierType(v)
		return b, c.done()
	default:
		return b, &ParseError{kw.pos, fmt.Sprintf("unknown barrier type %s: expected global, texture, buffer, ranged or type N", kw.text)}
	}
	b.Barrier.Type = typ
	if typ != ddi.BarrierTypeGlobal {
		v, err := p.view(c)
		if err != nil {
			return b, err
		}
		b.Res, b.HasRes = v, true
	}
	ranged94, ranged88 := typ == ddi.BarrierTypeRanged && !v0088, typ == ddi.BarrierTypeRanged && v0088
	tx := b.Barrier.Texture()
	g := b.Barrier.Global() // the sync and access members, which every type but the 0094 ranged starts with
	rg := b.Barrier.Ranged()
	flags := &rg.Flags
	switch {
	case typ == ddi.BarrierTypeTexture:
		tx.Subresources = ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresources}
	case ranged88:
		r := &b.Ranged0088
		r.Subresources = ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresources}
		g, flags = &r.GlobalBarrier, &r.Flags
	}
	members := barrierMembers[typ]
	if ranged88 {
		members = "sync, access, flags, subresources, range"
	}
	seen := map[string]bool{}
	for c.more() {
		f := c.next()
		if seen[f.text] {
			return b, &ParseError{f.pos, fmt.Sprintf("%s is given twice", f.text)}
		}
		seen[f.text] = true
		switch {
		case f.text == "sync" && !ranged94:
			before, after, err := c.pair(c.sync)
			if err != nil {
				return b, err
			}
			g.SyncBefore, g.SyncAfter = ddi.BarrierSync(before), ddi.BarrierSync(after)
		case f.text == "access" && !ranged94:
			before, after, err := c.pair(c.access)
			if err != nil {
				return b, err
			}
			g.AccessBefore, g.AccessAfter = ddi.BarrierAccess(before), ddi.BarrierAccess(after)
		case f.text == "layout" && typ == ddi.BarrierTypeTexture:
			before, after, err := c.pair(func() (uint64, error) { l, err := c.layout(); return uint64(l), err })
			if err != nil {
				return b, err
			}
			tx.LayoutBefore, tx.LayoutAfter = ddi.BarrierLayout(before), ddi.BarrierLayout(after)
		case f.text == "subresources" && (typ == ddi.BarrierTypeTexture || ranged88):
			sub, err := c.subresources()
			if err != nil {
				return b, err
			}
			b.Sub = sub
		case f.text == "subresource" && ranged94:
			if t, ok := c.peek(); ok && t.kind == tWord && t.text == "all" {
				c.next()
				rg.Subresource = ddi.AllSubresourcesIndex
				break
			}
			v, err := c.uint32("a subresource index or all")
			if err != nil {
				return b, err
			}
			rg.Subresource = uint32(v)
		case f.text == "flags" && typ == ddi.BarrierTypeTexture:
			v, err := c.enum("texture barrier flags (e.g. DISCARD)", func(s string) (uint64, error) {
				f, err := ddi.ParseTextureBarrierFlags(s)
				return uint64(f), err
			})
			if err != nil {
				return b, err
			}
			tx.Flags = ddi.TextureBarrierFlags(v)
		case f.text == "flags" && typ == ddi.BarrierTypeRanged:
			v, err := c.enum("ranged barrier flags (e.g. ATOMIC_COPY|ACQUIRE)", func(s string) (uint64, error) {
				f, err := ddi.ParseRangedBarrierFlags(s)
				return uint64(f), err
			})
			if err != nil {
				return b, err
			}
			*flags = ddi.RangedBarrierFlags(v)
		case f.text == "range" && typ == ddi.BarrierTypeRanged:
			off, size, err := c.plus("a byte range OFFSET+SIZE")
			if err != nil {
				return b, err
			}
			if ranged88 {
				b.Ranged0088.Range = ddi.Range{Begin: off, End: off + size}
			} else {
				rg.Range = ddi.Range{Begin: off, End: off + size}
			}
		default:
			return b, &ParseError{f.pos, fmt.Sprintf("unknown %s barrier member %s: expected %s", kw.text, f.text, members)}
		}
	}
	return b, nil
}

var barrierMembers = map[ddi.BarrierType]string{
	ddi.BarrierTypeGlobal:  "sync, access",
	ddi.BarrierTypeTexture: "sync, access, layout, subresources, flags",
	ddi.BarrierTypeBuffer:  "sync, access",
	ddi.BarrierTypeRanged:  "range, flags, subresource",
}

// view parses a view: NAME, NAME[OFF+SIZE], NAME@SUB, NULL or a raw handle
// number.
func (p *parser) view(c *cursor) (ViewRef, error) {
	t, err := c.next1("a resource name")
	if err != nil {
		return ViewRef{}, err
	}
	v := ViewRef{Pos: t.pos}
	switch {
	case t.kind == tNumber:
		n, err := parseUint(t)
		if err != nil {
			return v, err
		}
		v.Raw, v.IsRaw = n, true // a raw handle may take a range or subresource too
	case t.kind == tWord && t.text == "NULL":
		v.IsRaw = true
		return v, nil
	case t.kind != tWord:
		return v, &ParseError{t.pos, fmt.Sprintf("expected a resource name, found %s", t)}
	default:
		if err := p.ref(t, "resource"); err != nil {
			return v, err
		}
		v.Res = t.text
	}
	if n, ok := c.peek(); ok && n.kind == tPunct && n.text == "[" {
		c.next()
		if v.Offset, v.Size, err = c.plus("a byte range OFFSET+SIZE"); err != nil {
			return v, err
		}
		if _, err := c.punct("]"); err != nil {
			return v, err
		}
		v.HasRange = true
	} else if ok && n.kind == tPunct && n.text == "@" {
		c.next()
		s, err := c.uint32("a subresource index")
		if err != nil {
			return v, err
		}
		v.Sub, v.HasSub = uint32(s), true
	}
	return v, nil
}

// views parses the views of a role, up to the next role keyword.
func (p *parser) views(c *cursor, role string, roles []string) ([]ViewRef, error) {
	var out []ViewRef
	for c.more() {
		t, _ := c.peek()
		if t.kind == tWord && slices.Contains(roles, t.text) {
			break
		}
		v, err := p.view(c)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, &ParseError{c.endPos(), fmt.Sprintf("%s needs at least one resource", role)}
	}
	return out, nil
}

// commandRoles lists, per work command, the roles its views may take
// (flag roles take no view).
var commandRoles = map[string][]string{
	"draw": {"rt", "ds", "ds-write", "vs-srv", "vs-cbv", "vs-uav", "ps-srv", "ps-cbv", "ps-uav", "vb", "ib", "so", "args",
		"shading-rate"},
	"dispatch":      {"srv", "cbv", "uav", "args"},
	"dispatch-rays": {"as", "srv", "cbv", "uav"},
	"build-as":      {"inputs", "source", "scratch"},
	"decode":        {"in", "ref", "out"},
	"process":       {"in", "ref", "out"},
	"encode":        {"in", "ref", "out"},
}

// positional gives the other commands' operands: v a view, n a number, w a
// number that must fit 32 bits.
var positional = map[string]string{
	"build-as":               "v",
	"copy-as":                "vv",
	"postbuild-info":         "vv",
	"copy-buffer":            "vnvnn",
	"copy-resource":          "vv",
	"copy-texture":           "vwwwv",
	"copy-texture-to-buffer": "vnv",
	"copy-buffer-to-texture": "vvn",
	"resolve":                "vv",
	"clear-rt":               "vw",
	"clear-ds":               "vw",
	"clear-uav":              "vw",
	"discard":                "v",
	"predication":            "v", // then OFFSET (optional after NULL) and OP (command)
	"atomic-copy":            "vnvn",
}

// queryCommands are the query commands (queryCommand parses them).
var queryCommands = []string{"begin-query", "end-query", "resolve-query"}

// command parses a work command.
func (p *parser) command(kw token, c *cursor) (Cmd, error) {
	cmd := Cmd{Pos: kw.pos, Op: kw.text, Views: map[string][]ViewRef{}}
	if slices.Contains(queryCommands, kw.text) {
		return p.queryCommand(cmd, c)
	}
	sig, isPos := positional[kw.text]
	roles, hasRoles := commandRoles[kw.text]
	if !isPos && !hasRoles {
		var all []string
		for n := range positional {
			all = append(all, n)
		}
		for n := range commandRoles {
			if _, dup := positional[n]; !dup {
				all = append(all, n)
			}
		}
		all = append(all, queryCommands...)
		slices.Sort(all)
		return cmd, &ParseError{kw.pos, fmt.Sprintf("unknown command %s: expected barrier, call or one of %s", kw.text, strings.Join(all, ", "))}
	}
	for i, k := range sig {
		switch k {
		case 'v':
			v, err := p.view(c)
			if err != nil {
				return cmd, err
			}
			cmd.Views[fmt.Sprint(i)] = []ViewRef{v}
		case 'n', 'w':
			var n uint64
			var err error
			if k == 'w' {
				n, err = c.uint32("a 32-bit number")
			} else {
				n, err = c.uint("a number")
			}
			if err != nil {
				return cmd, err
			}
			cmd.Args = append(cmd.Args, n)
		}
	}
	for c.more() {
		t := c.next()
		switch {
		case kw.text == "copy-texture" && t.text == "box":
			var b [6]uint64
			for j := range b {
				n, err := c.uint32("six box coordinates: left top front right bottom back")
				if err != nil {
					return cmd, err
				}
				b[j] = n
			}
			cmd.Box = &driver.Box{Left: uint32(b[0]), Top: uint32(b[1]), Front: uint32(b[2]), Right: uint32(b[3]), Bottom: uint32(b[4]), Back: uint32(b[5])}
		case kw.text == "atomic-copy" && t.text == "64":
			cmd.Flag = true
		case kw.text == "predication" && t.kind == tNumber && len(cmd.Args) == 0:
			n, err := parseUint(t)
			if err != nil {
				return cmd, err
			}
			cmd.Args = append(cmd.Args, n)
		case kw.text == "predication" && t.kind == tWord && !cmd.Flag:
			op, err := ddi.ParsePredicationOp(t.text)
			if err != nil {
				return cmd, &ParseError{t.pos, fmt.Sprintf("unexpected %s in predication: expected the predicate's offset, then EQUAL_ZERO or NOT_EQUAL_ZERO", t.text)}
			}
			cmd.Op2, cmd.Flag = uint64(op), true
		case hasRoles && slices.Contains(roles, t.text):
			if _, dup := cmd.Views[t.text]; dup {
				return cmd, &ParseError{t.pos, fmt.Sprintf("%s is given twice", t.text)}
			}
			if t.text == "ds-write" {
				cmd.Flag = true
			}
			vs, err := p.views(c, t.text, roles)
			if err != nil {
				return cmd, err
			}
			cmd.Views[t.text] = vs
		default:
			what := "end of line"
			if hasRoles {
				what = strings.Join(roles, ", ")
			}
			return cmd, &ParseError{t.pos, fmt.Sprintf("unexpected %s in %s: expected %s", t.text, kw.text, what)}
		}
	}
	if kw.text == "predication" && len(cmd.Args) == 0 {
		if v := cmd.Views["0"][0]; !v.IsRaw || v.Raw != 0 {
			return cmd, &ParseError{c.endPos(), "expected the predicate's offset in the buffer (only NULL, which ends predication, needs none)"}
		}
		cmd.Args = append(cmd.Args, 0)
	}
	return cmd, nil
}

// expect parses an expectation.
func (p *parser) expect(kw token, c *cursor) error {
	k, err := c.wordTok("what to expect (reference, bytes, no-hazard, hazard, detected, error, warning, packets, cost)")
	if err != nil {
		return err
	}
	e := Expect{Pos: kw.pos, Kind: k.text}
	switch k.text {
	case "reference", "detected":
		for c.more() {
			v, err := p.view(c)
			if err != nil {
				return err
			}
			e.Res = append(e.Res, v)
		}
	case "bytes":
		v, err := p.view(c)
		if err != nil {
			return err
		}
		if n, ok := c.peek(); ok && n.kind == tPunct && n.text == "=" {
			c.next()
		}
		if e.Bytes, err = p.bytes(c); err != nil {
			return err
		}
		e.Res = []ViewRef{v}
	case "no-hazard":
	case "hazard":
		t, err := c.wordTok("a hazard kind (e.g. read-after-write)")
		if err != nil {
			return err
		}
		if e.Hazard, err = hwmodel.ParseHazardKind(t.text); err != nil {
			return &ParseError{t.pos, err.Error()}
		}
		if c.keyword("on") {
			v, err := p.view(c)
			if err != nil {
				return err
			}
			e.Res = []ViewRef{v}
		}
	case "error", "warning":
		t, err := c.next1("a message ID or name (e.g. 1334 or INCOMPATIBLE_BARRIER_LAYOUT)")
		if err != nil {
			return err
		}
		if e.ID, err = parseMessageID(t); err != nil {
			return err
		}
		for c.more() {
			switch {
			case c.keyword("in"):
				if e.List, err = p.named(c, "a list name", "list"); err != nil {
					return err
				}
			case c.keyword("field"):
				f, err := c.next1("a member name")
				if err != nil {
					return err
				}
				e.Field = f.text
			case c.keyword("count"):
				if e.N, err = c.uint("a message count"); err != nil {
					return err
				}
				e.Counted = true
			case c.keyword("text"):
				if e.Text, err = c.str("the text the message contains, quoted"); err != nil {
					return err
				}
			default:
				t := c.next()
				return &ParseError{t.pos, fmt.Sprintf("unexpected %s: expected in LIST, field NAME, count N or text \"...\"", t.text)}
			}
		}
	case "packets":
		if c.keyword("in") {
			if e.List, err = p.named(c, "a list name", "list"); err != nil {
				return err
			}
		}
		t, err := c.wordTok("an opcode (e.g. WAIT, CACHE, DECOMPRESS)")
		if err != nil {
			return err
		}
		if _, ok := LookupOpcode(t.text); !ok {
			return &ParseError{t.pos, fmt.Sprintf("no opcode %s (have %s)", t.text, strings.Join(opcodeNames(), ", "))}
		}
		e.Op = t.text
		if e.Cmp, e.N, err = c.comparison(); err != nil {
			return err
		}
	case "cost":
		t, err := c.wordTok("a cost metric (e.g. cycles, stall-cycles, decompressed-bytes)")
		if err != nil {
			return err
		}
		if _, ok := Metrics[t.text]; !ok {
			return &ParseError{t.pos, fmt.Sprintf("no cost metric %s (have %s)", t.text, strings.Join(metricNames(), ", "))}
		}
		e.Op = t.text
		if e.Cmp, e.N, err = c.comparison(); err != nil {
			return err
		}
	default:
		return &ParseError{k.pos, fmt.Sprintf("unknown expectation %s: expected reference, bytes, no-hazard, hazard, error, warning, packets or cost", k.text)}
	}
	if err := c.done(); err != nil {
		return err
	}
	p.sc.Expects = append(p.sc.Expects, e)
	return nil
}

// cursor walks one line's tokens.
type cursor struct {
	toks []token
	i    int
	end  Pos // the line's start, for errors at its end
}

func (c *cursor) more() bool { return c.i < len(c.toks) }

func (c *cursor) peek() (token, bool) {
	if c.i < len(c.toks) {
		return c.toks[c.i], true
	}
	return token{}, false
}

// next returns the next token; call only when more.
func (c *cursor) next() token {
	t := c.toks[c.i]
	c.i++
	return t
}

// endPos is where the line ends, for "expected X" at its end.
func (c *cursor) endPos() Pos {
	if len(c.toks) == 0 {
		return c.end
	}
	t := c.toks[len(c.toks)-1]
	return Pos{t.pos.File, t.pos.Line, t.pos.Col + len(t.text)}
}

// next1 returns the next token or an error naming what was expected.
func (c *cursor) next1(what string) (token, error) {
	if !c.more() {
		return token{}, &ParseError{c.endPos(), "expected " + what + ", found end of line"}
	}
	return c.next(), nil
}

func (c *cursor) wordTok(what string) (token, error) {
	t, err := c.next1(what)
	if err != nil {
		return t, err
	}
	if t.kind != tWord {
		return t, &ParseError{t.pos, fmt.Sprintf("expected %s, found %s", what, t)}
	}
	return t, nil
}

func (c *cursor) word(what string) (string, error) {
	t, err := c.wordTok(what)
	return t.text, err
}

func (c *cursor) str(what string) (string, error) {
	t, err := c.next1(what)
	if err != nil {
		return "", err
	}
	if t.kind != tString {
		return "", &ParseError{t.pos, fmt.Sprintf("expected %s, found %s", what, t)}
	}
	return t.text, nil
}

func (c *cursor) punct(p string) (token, error) {
	t, err := c.next1(fmt.Sprintf("%q", p))
	if err != nil {
		return t, err
	}
	if t.kind != tPunct || t.text != p {
		return t, &ParseError{t.pos, fmt.Sprintf("expected %q, found %s", p, t)}
	}
	return t, nil
}

// keyword consumes the next token if it is the word kw.
func (c *cursor) keyword(kw string) bool {
	if t, ok := c.peek(); ok && t.kind == tWord && t.text == kw {
		c.i++
		return true
	}
	return false
}

func (c *cursor) done() error {
	if c.more() {
		t := c.next()
		return &ParseError{t.pos, fmt.Sprintf("unexpected %s: expected end of line", t)}
	}
	return nil
}

func (c *cursor) uint(what string) (uint64, error) {
	t, err := c.next1(what)
	if err != nil {
		return 0, err
	}
	if t.kind != tNumber {
		return 0, &ParseError{t.pos, fmt.Sprintf("expected %s, found %s", what, t)}
	}
	return parseUint(t)
}

// uint32 parses a number that must fit a 32-bit member.
func (c *cursor) uint32(what string) (uint64, error) { return c.uintMax(what, 0xffffffff) }

// uintMax parses a number of at most max: a member's width is never cut
// silently (65537 mips is an error, not one mip).
func (c *cursor) uintMax(what string, max uint64) (uint64, error) {
	t, _ := c.peek()
	v, err := c.uint(what)
	if err == nil && v > max {
		return 0, &ParseError{t.pos, fmt.Sprintf("%d does not fit %s (at most %d)", v, what, max)}
	}
	return v, err
}

// plus parses OFFSET+SIZE.
func (c *cursor) plus(what string) (uint64, uint64, error) {
	a, err := c.uint(what)
	if err != nil {
		return 0, 0, err
	}
	if _, err := c.punct("+"); err != nil {
		return 0, 0, err
	}
	b, err := c.uint(what)
	return a, b, err
}

// pair parses X -> Y with one parser for both.
func (c *cursor) pair(one func() (uint64, error)) (uint64, uint64, error) {
	a, err := one()
	if err != nil {
		return 0, 0, err
	}
	if _, err := c.punct("->"); err != nil {
		return 0, 0, err
	}
	b, err := one()
	return a, b, err
}

// enum parses a name the given parser accepts, or a raw number.
func (c *cursor) enum(what string, parse func(string) (uint64, error)) (uint64, error) {
	t, err := c.next1(what)
	if err != nil {
		return 0, err
	}
	if t.kind == tNumber && !strings.Contains(t.text, "|") {
		// Every enum and flag set of the DDI is 32 bits wide.
		v, err := parseUint(t)
		if err == nil && v > 0xffffffff {
			return 0, &ParseError{t.pos, fmt.Sprintf("%d does not fit %s (at most 4294967295)", v, what)}
		}
		return v, err
	}
	if t.kind != tWord && t.kind != tNumber {
		return 0, &ParseError{t.pos, fmt.Sprintf("expected %s, found %s", what, t)}
	}
	v, err := parse(t.text)
	if err != nil {
		return 0, &ParseError{t.pos, fmt.Sprintf("expected %s: %v", what, err)}
	}
	return v, nil
}

func (c *cursor) sync() (uint64, error) {
	return c.enum("a sync scope (e.g. RENDER_TARGET, ALL, NONE)", func(s string) (uint64, error) {
		v, err := ddi.ParseBarrierSync(s)
		return uint64(v), err
	})
}

func (c *cursor) access() (uint64, error) {
	return c.enum("an access (e.g. SHADER_RESOURCE, NO_ACCESS, COMMON)", func(s string) (uint64, error) {
		v, err := ddi.ParseBarrierAccess(s)
		return uint64(v), err
	})
}

func (c *cursor) layout() (ddi.BarrierLayout, error) {
	v, err := c.enum("a layout (e.g. RENDER_TARGET, DIRECT_QUEUE_SHADER_RESOURCE, UNDEFINED)", func(s string) (uint64, error) {
		v, err := ddi.ParseBarrierLayout(s)
		return uint64(v), err
	})
	return ddi.BarrierLayout(v), err
}

// states parses legacy resource states: D3D12_RESOURCE_STATES names
// without the prefix, joined by |.
func (c *cursor) states() (ddi.ResourceStates, error) {
	v, err := c.enum("resource states (e.g. RENDER_TARGET, GENERIC_READ, COPY_SOURCE|NON_PIXEL_SHADER_RESOURCE)", func(s string) (uint64, error) {
		v, err := ddi.ParseResourceStates(s)
		return uint64(v), err
	})
	return ddi.ResourceStates(v), err
}

func (c *cursor) listType() (ddi.CommandListType, error) {
	t, err := c.next1("a command list type (DIRECT, COMPUTE, COPY, VIDEO_DECODE, VIDEO_PROCESS, VIDEO_ENCODE)")
	if err != nil {
		return 0, err
	}
	v, err := ddi.ParseCommandListType(strings.ToUpper(t.text))
	if err != nil {
		return 0, &ParseError{t.pos, fmt.Sprintf("expected a command list type (DIRECT, COMPUTE, COPY, VIDEO_DECODE, VIDEO_PROCESS, VIDEO_ENCODE), found %s", t)}
	}
	return v, nil
}

func (c *cursor) heapKind() (resource.HeapKind, error) {
	t, err := c.next1("a heap kind (default, upload, readback)")
	if err != nil {
		return 0, err
	}
	k, err := resource.ParseHeapKind(strings.ToUpper(t.text))
	if err != nil {
		return 0, &ParseError{t.pos, fmt.Sprintf("expected a heap kind (default, upload, readback), found %s", t)}
	}
	return k, nil
}

// subresources parses all | N | [mips R] [slices R] [planes R], a range
// R being A..B (inclusive) or F+N (first and count).
func (c *cursor) subresources() (*SubSpec, error) {
	s := &SubSpec{}
	if c.keyword("all") {
		s.All = true
		return s, nil
	}
	if t, ok := c.peek(); ok && t.kind == tNumber {
		n, err := c.uint32("a subresource index")
		s.Index, s.IsIndex = uint32(n), true
		return s, err
	}
	any := false
	for {
		var dst *[2]uint32
		var has *bool
		switch {
		case c.keyword("mips"):
			dst, has = &s.Mips, &s.HasMips
		case c.keyword("slices"):
			dst, has = &s.Slices, &s.HasSlices
		case c.keyword("planes"):
			dst, has = &s.Planes, &s.HasPlanes
		}
		if dst == nil {
			break
		}
		first, err := c.uint32("a first index")
		if err != nil {
			return nil, err
		}
		sep, err := c.next1(`".." or "+"`)
		if err != nil {
			return nil, err
		}
		second, err := c.uint32("a last index or a count")
		if err != nil {
			return nil, err
		}
		switch {
		case sep.kind == tPunct && sep.text == "..":
			if second < first {
				return nil, &ParseError{sep.pos, fmt.Sprintf("the range %d..%d is backwards", first, second)}
			}
			second = second - first + 1
		case sep.kind == tPunct && sep.text == "+":
		default:
			return nil, &ParseError{sep.pos, fmt.Sprintf(`expected ".." or "+", found %s`, sep)}
		}
		*dst, *has, any = [2]uint32{uint32(first), uint32(second)}, true, true
	}
	if !any {
		return nil, &ParseError{c.endPos(), "expected all, an index, or mips/slices/planes ranges"}
	}
	return s, nil
}

// comparison parses CMP N.
func (c *cursor) comparison() (string, uint64, error) {
	t, err := c.next1("a comparison (==, <=, >=, <, >)")
	if err != nil {
		return "", 0, err
	}
	switch t.text {
	case "==", "<=", ">=", "<", ">", "=":
	default:
		return "", 0, &ParseError{t.pos, fmt.Sprintf("expected a comparison (==, <=, >=, <, >), found %s", t)}
	}
	if t.text == "=" {
		t.text = "=="
	}
	n, err := c.uint("a number")
	return t.text, n, err
}

// bytes parses hex bytes (01 02 ff, or 0102ff) or `fill BYTE COUNT`.
func (c *cursor) bytes() ([]byte, error) {
	if c.keyword("fill") {
		v, n, err := c.fillArgs()
		if err != nil {
			return nil, err
		}
		return bytes.Repeat([]byte{v}, int(n)), nil
	}
	var out []byte
	for c.more() {
		t := c.next()
		b, err := hex.DecodeString(t.text)
		if err != nil || t.kind == tString || t.kind == tPunct {
			return nil, &ParseError{t.pos, fmt.Sprintf("expected hex bytes (e.g. 01 ab or 01ab), found %s", t)}
		}
		out = append(out, b...)
	}
	if len(out) == 0 {
		return nil, &ParseError{c.endPos(), "expected hex bytes or fill BYTE COUNT"}
	}
	return out, nil
}

// fillArgs reads fill's BYTE COUNT (after the word fill).
func (c *cursor) fillArgs() (byte, uint64, error) {
	v, err := c.uint("the fill byte")
	if err != nil {
		return 0, 0, err
	}
	n, err := c.uint("the number of bytes")
	if err != nil {
		return 0, 0, err
	}
	if v > 0xff || n > 1<<24 {
		return 0, 0, &ParseError{c.endPos(), "fill takes a byte value and at most 16 MiB"}
	}
	return byte(v), n, nil
}

// parseUint reads a number: decimal or 0x hex, with an optional KiB, MiB
// or GiB multiplier.
func parseUint(t token) (uint64, error) {
	s, mul := t.text, uint64(1)
	for _, u := range []struct {
		suffix string
		mul    uint64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
		if strings.HasSuffix(s, u.suffix) && !strings.HasPrefix(s, "0x") {
			s, mul = strings.TrimSuffix(s, u.suffix), u.mul
			break
		}
	}
	// Decimal or 0x hex, as docs/scenarios.md says: not Go's octal
	// (010), 0o, 0b or digit separators, which would read 010 as 8.
	base, digits := 10, s
	if rest, ok := strings.CutPrefix(s, "0x"); ok {
		base, digits = 16, rest
	} else if len(s) > 1 && s[0] == '0' && strings.Trim(s, "0123456789") == "" {
		return 0, &ParseError{t.pos, fmt.Sprintf("%s has a leading zero: numbers are decimal (write %s) or 0x hex", t.text, strings.TrimLeft(s, "0"))}
	}
	v, err := strconv.ParseUint(digits, base, 64)
	if err != nil || digits == "" || strings.ContainsAny(digits, "_+-") || v > ^uint64(0)/mul {
		return 0, &ParseError{t.pos, fmt.Sprintf("expected a number (decimal, 0x hex, or with KiB/MiB/GiB), found %s", t)}
	}
	return v * mul, nil
}

// parseDims reads WxH[xD] or W.
func parseDims(t token) ([]uint64, error) {
	parts := strings.Split(t.text, "x")
	if t.kind != tNumber || len(parts) > 3 || strings.HasPrefix(t.text, "0x") {
		return nil, &ParseError{t.pos, fmt.Sprintf("expected a texture size W, WxH or WxHxD, found %s", t)}
	}
	var out []uint64
	for i, p := range parts {
		v, err := strconv.ParseUint(p, 10, 64)
		if err != nil || strings.ContainsAny(p, "_+-") {
			return nil, &ParseError{t.pos, fmt.Sprintf("expected a texture size W, WxH or WxHxD, found %s", t)}
		}
		// Width and height are 32-bit, depth 16-bit (DepthOrArraySize).
		if max := []uint64{0xffffffff, 0xffffffff, 0xffff}[i]; v > max {
			return nil, &ParseError{t.pos, fmt.Sprintf("%s: %d does not fit the texture's %s (at most %d)", t.text, v,
				[]string{"width", "height", "depth"}[i], max)}
		}
		out = append(out, v)
	}
	if len(out) == 1 {
		return []uint64{out[0], 1}, nil
	}
	return out, nil
}

// SubSpec is a barrier's subresources as written; missing slices and
// planes mean all of them, which only the resource knows.
type SubSpec struct {
	All                           bool
	Index                         uint32
	IsIndex                       bool
	Mips, Slices, Planes          [2]uint32 // first, count
	HasMips, HasSlices, HasPlanes bool
}

var messageIDs = func() map[string]debug.MessageID {
	m := map[string]debug.MessageID{}
	for _, id := range debug.MessageIDs() { // the driver's and the legacy layer's
		m[id.Name()] = id
	}
	return m
}()

func parseMessageID(t token) (debug.MessageID, error) {
	if t.kind == tNumber {
		v, err := parseUint(t)
		if err == nil && v > 0xffffffff {
			return 0, &ParseError{t.pos, fmt.Sprintf("%d does not fit a message ID (at most 4294967295)", v)}
		}
		return debug.MessageID(v), err
	}
	if id, ok := messageIDs[strings.TrimPrefix(t.text, "D3D12_MESSAGE_ID_")]; ok {
		return id, nil
	}
	return 0, &ParseError{t.pos, fmt.Sprintf("no message %s: expected a number or a name such as INCOMPATIBLE_BARRIER_LAYOUT", t.text)}
}

func LookupOpcode(name string) (cmdbuf.Opcode, bool) {
	for _, op := range cmdbuf.Opcodes() {
		if op.String() == name {
			return op, true
		}
	}
	return 0, false
}

func opcodeNames() []string {
	var out []string
	for _, op := range cmdbuf.Opcodes() {
		out = append(out, op.String())
	}
	return out
}
