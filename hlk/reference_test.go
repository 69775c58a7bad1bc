package hlk

import (
	"github.com/ebref/ebref/hlk/reference"
	"github.com/ebref/ebref/umd/translator"
)

// The tests judge ebref's own driver, which hlk itself does not import.
var Reference = reference.Driver

func WithTranslator(t translator.Opener) Driver { return reference.WithTranslator(t) }
