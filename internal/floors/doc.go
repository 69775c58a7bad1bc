// Package floors holds no code: its test keeps the house's floors, the
// rule of which ebref package may import which (ARCHITECTURE in
// docs/translation.md and the README's package table).
package floors
