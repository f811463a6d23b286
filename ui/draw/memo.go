package draw

// Memo keeps the lines the console draws on every frame — pane titles, the
// tab strip, the footer, the headroom bars — by everything they are drawn
// from, so that a frame draws again only those whose content changed.
// lipgloss's Render measures and lays out its text on every call, which was
// most of what drawing a frame's header and footer cost; the same keys and
// counts come back frame after frame.
type Memo struct{ lines map[string]string }

// maxMemoLines bounds the memo: a screen has a few dozen such lines, and
// the bars' counts move through a few hundred values in a rollout.
const maxMemoLines = 512

// Line is the line drawn for key, drawing it when it is not kept. key must
// name everything the line shows, and be prefixed by which line it is.
func (c *Memo) Line(key string, draw func() string) string {
	if c == nil {
		return draw()
	}
	if out, ok := c.lines[key]; ok {
		return out
	}
	if c.lines == nil || len(c.lines) >= maxMemoLines {
		c.lines = make(map[string]string, 64)
	}
	out := draw()
	c.lines[key] = out
	return out
}

// Flag is b in a memo key: "1" or "0".
func Flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
