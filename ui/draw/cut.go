package draw

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// The one home of cutting text that does not fit: Fit cuts the end, which
// suits sentences; names and images are told apart by their ends (a pod's
// random suffix, a node's index, an image's tag), so those are cut in the
// middle.

// CutMiddle makes plain s at most w cells, keeping its start and its end
// with "…" between: sim-xgkjc-nodes-2 → sim-…nodes-2.
func CutMiddle(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(s) <= w {
		return s
	}
	if w == 1 {
		return "…"
	}
	r := []rune(s)
	tail := (w - 1) * 2 / 3 // the end tells more than the start
	head := w - 1 - tail
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// CutImage makes an image reference at most w cells, keeping what tells
// two revisions apart: the tag or digest and the last path element whole,
// cutting the registry and path before them —
// gcr.io/google-samples/gb-frontend:v3 → gcr.io/…/gb-frontend:v3. When
// even that does not fit, the end is kept: …frontend:v3.
func CutImage(ref string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(ref) <= w {
		return ref
	}
	keep := ref
	if i := strings.LastIndex(ref, "/"); i >= 0 {
		keep = ref[i:] // with its slash
	}
	r := []rune(ref)
	k := []rune(keep)
	if len(k)+2 <= w {
		head := w - 1 - len(k)
		return string(r[:head]) + "…" + keep
	}
	if w == 1 {
		return "…"
	}
	return "…" + string(r[len(r)-(w-1):])
}

// CutImages fits a comma-separated list of images into w cells, every
// image getting its share, so a second container's image is never hidden
// behind the first: example.com/api:v1,example.com/sidecar:v2 →
// ex…/api:v1,ex…/sidecar:v2.
func CutImages(list string, w int) string {
	if width(list) <= w {
		return list
	}
	images := strings.Split(list, ",")
	n := len(images)
	share := (w - (n - 1)) / n
	if share < 4 {
		return CutImage(list, w)
	}
	out := make([]string, n)
	for i, img := range images {
		out[i] = CutImage(img, share)
	}
	return strings.Join(out, ",")
}

// CutKeepingHint fits a sentence of the form "what happened — what to do"
// into w cells by cutting what happened, so the hint survives: a toast
// cut mid-hint leaves the operator without the way out.
func CutKeepingHint(s string, w int) string {
	if width(s) <= w {
		return s
	}
	i := strings.LastIndex(s, " — ")
	if i < 0 {
		return ansi.Truncate(s, w, "…")
	}
	hint := s[i:]
	room := w - width(hint)
	if room < 12 {
		return ansi.Truncate(s, w, "…")
	}
	return ansi.Truncate(s[:i], room, "…") + hint
}
