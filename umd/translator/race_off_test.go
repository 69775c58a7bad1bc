//go:build !race

package translator_test

const raceEnabled = false
