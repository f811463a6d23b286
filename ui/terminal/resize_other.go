//go:build !unix

package terminal

import (
	"context"

	tea "charm.land/bubbletea/v2"
)

// Resizes does nothing where there is no SIGWINCH: the console keeps the
// size it started with.
func (c *Console) Resizes(context.Context, func(tea.Msg)) {}
