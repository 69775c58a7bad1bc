package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"
)

// A site is one mutation of one source file: the bytes [Start, End)
// replaced by Text. Applying it gives a program that differs from the
// original in exactly one operator, operand, condition or statement.
type site struct {
	File       string // as given to sites
	Name       string // the file as reports name it (File if empty)
	Line, Col  int
	Start, End int
	Text       string
	Operator   string // the mutation operator's name
	Was        string // the source text replaced
}

func (s site) String() string {
	name := s.Name
	if name == "" {
		name = s.File
	}
	return fmt.Sprintf("%s:%d:%d: %s: %q -> %q", name, s.Line, s.Col, s.Operator, s.Was, s.Text)
}

// apply returns src with the site's mutation in it.
func (s site) apply(src []byte) []byte {
	out := make([]byte, 0, len(src)+len(s.Text))
	out = append(out, src[:s.Start]...)
	out = append(out, s.Text...)
	return append(out, src[s.End:]...)
}

// swapped are the operator replacements: a negated comparison, an
// off-by-one bound, and/or swapped, a mask operation weakened.
var swapped = map[token.Token]token.Token{
	token.EQL: token.NEQ, token.NEQ: token.EQL,
	token.LSS: token.LEQ, token.LEQ: token.LSS,
	token.GTR: token.GEQ, token.GEQ: token.GTR,
	token.LAND: token.LOR, token.LOR: token.LAND,
	token.AND_NOT: token.AND,
	token.ADD:     token.SUB, token.SUB: token.ADD,
}

// sites lists every mutation of a Go file, in source order:
//
//   - swap-operator: ==/!=, </<=, >/>=, &&/||, &^ to &, + and - swapped;
//   - drop-mask-bit: a | b becomes a (a mask loses a member);
//   - negate-condition: the condition of an if becomes its negation;
//   - remove-statement: a call statement, or an assignment with |=, &^=,
//     += or -=, is removed.
//
// Functions named in skip (tests, String methods and the like are the
// caller's choice) are left alone.
func sites(name string, src []byte, skip func(fn string) bool) ([]site, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []site
	add := func(pos, end token.Pos, text, op string) {
		p := fset.Position(pos)
		s, e := fset.Position(pos).Offset, fset.Position(end).Offset
		out = append(out, site{File: name, Line: p.Line, Col: p.Column, Start: s, End: e, Text: text, Operator: op, Was: string(src[s:e])})
	}
	srcOf := func(n ast.Node) string {
		return string(src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset])
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil || skip(fn.Name.Name) {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.BinaryExpr:
				if to, ok := swapped[x.Op]; ok {
					add(x.OpPos, x.OpPos+token.Pos(len(x.Op.String())), to.String(), "swap-operator")
				}
				if x.Op == token.OR {
					add(x.X.End(), x.Y.End(), "", "drop-mask-bit")
				}
			case *ast.IfStmt:
				add(x.Cond.Pos(), x.Cond.End(), "!("+srcOf(x.Cond)+")", "negate-condition")
			case *ast.ExprStmt:
				if _, ok := x.X.(*ast.CallExpr); ok {
					add(x.Pos(), x.End(), "", "remove-statement")
				}
			case *ast.AssignStmt:
				switch x.Tok {
				case token.OR_ASSIGN, token.AND_NOT_ASSIGN, token.ADD_ASSIGN, token.SUB_ASSIGN:
					add(x.Pos(), x.End(), "", "remove-statement")
				}
			case *ast.FuncLit:
				return true
			}
			return true
		})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out, nil
}

// skipFunc leaves alone what only formats text: String and Error methods
// and functions whose names say they print or describe.
func skipFunc(fn string) bool {
	switch fn {
	case "String", "Error", "Name", "GoString":
		return true
	}
	for _, p := range []string{"write", "Write", "print", "Print", "describe", "format", "Format"} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}
