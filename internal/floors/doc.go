// Package floors holds no code: its test keeps the house's floors, the
// rule of which ebref package may import which (ARCHITECTURE.md and the
// README's package table), and that each package's doc comment states
// its own rule truly.
//
// This package imports nothing of ebref: its test reads the packages'
// sources, never links them.
package floors
