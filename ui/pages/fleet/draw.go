package fleet

import (
	"strconv"
	"strings"

	"rollscope/model/cluster"
	"rollscope/themes"
	"rollscope/ui/draw"
)

// fleetStates is how many states there are (cluster.FleetFailed …
// cluster.FleetComplete).
const fleetStates = int(cluster.FleetComplete) + 1

// stateGlyphs mark each state by shape, so the column reads without colour
// (NO_COLOR, monochrome captures), in cluster.FleetState's order.
var stateGlyphs = [fleetStates]string{
	cluster.FleetFailed:       "✖",
	cluster.FleetStuck:        "■",
	cluster.FleetCrashLooping: "↻",
	cluster.FleetPaused:       "‖",
	cluster.FleetCanary:       "◐",
	cluster.FleetRolling:      "▶",
	cluster.FleetNodeRoll:     "⇄",
	cluster.FleetComplete:     "✔",
}

// paints are the fleet's colours: one per state, from the theme's semantic
// styles — what needs a human in the bad colour, a pause in the warning
// one, what moves on its own in the accent (a node roll in the surge bar's
// colour, to tell it from a rollout), what is done in the OK one.
type paints struct {
	state              [fleetStates]draw.Paint
	muted, bad, header draw.Paint
	selected, warn     draw.Paint
}

func newPaints(st themes.Styles) paints {
	p := paints{muted: draw.NewPaint(st.Muted), bad: draw.NewPaint(st.Bad), header: draw.NewPaint(st.TableHeader),
		selected: draw.NewPaint(st.Selected), warn: draw.NewPaint(st.Warn)}
	for s := range p.state {
		switch cluster.FleetState(s) {
		case cluster.FleetFailed, cluster.FleetStuck, cluster.FleetCrashLooping:
			p.state[s] = draw.NewPaint(st.Bad)
		case cluster.FleetPaused:
			p.state[s] = draw.NewPaint(st.Warn)
		case cluster.FleetCanary, cluster.FleetRolling:
			p.state[s] = draw.NewPaint(st.Accent)
		case cluster.FleetNodeRoll:
			p.state[s] = draw.NewPaint(st.SurgeBar)
		default:
			p.state[s] = draw.NewPaint(st.OK)
		}
	}
	return p
}

// barCells is the progress bar's length: fixed, so bars compare down the
// column whatever the replica counts.
const barCells = 8

// widest is the widest cell of the rows in the columns sized to them.
type widest struct{ cluster, namespace, name, state, figures, revision int }

// columns are the table's columns for rows whose widest cells are w: the
// cluster, namespace, name and state word are as wide as the rows need
// (within bounds; a Rollout's "awaiting promotion" is the longest state
// word), the revision and progress figures never cut (a revision past
// 9999 would read "100…"), and IMAGES and CHANGE-CAUSE share the rest.
// What goes first at narrow widths is declared here (Drop, the highest
// first): CHANGE-CAUSE, AGE, IMAGES, KIND, REV, then NAMESPACE; NAME,
// PROGRESS and STATE stay, NAME and STATE narrowing to their Min when even
// they do not fit. NAMESPACE is there only when the rows span namespaces.
func columns(clusters, grouped, many bool, w widest) []draw.Column {
	images := draw.Column{Title: "IMAGES", Min: 16, Cut: cutImages, Drop: 5}
	ctxW := w.cluster
	if grouped {
		// Each cluster's revision, images and state: cut at the end.
		images = draw.Column{Title: "PER CLUSTER", Min: 16, Drop: 5}
		ctxW += 3 // " +2"
	}
	cols := make([]draw.Column, 0, 10)
	if clusters {
		// CLUSTER gives up after everything but NAME, PROGRESS and STATE,
		// its names cut in the middle first.
		cols = append(cols, draw.Column{Title: "CLUSTER", Width: min(max(ctxW, 7), 20), Min: 7, Cut: draw.CutMiddle, Drop: 1})
	}
	if many {
		cols = append(cols, draw.Column{Title: "NAMESPACE", Width: min(max(w.namespace, 9), 20), Cut: draw.CutMiddle, Drop: 2})
	}
	return append(cols,
		draw.Column{Title: "KIND", Width: 6, Drop: 4},
		draw.Column{Title: "NAME", Width: min(max(w.name, 12), 40), Min: 8, Cut: draw.CutMiddle},
		draw.Column{Title: "REV", Width: max(4, w.revision), Right: true, Drop: 3},
		images,
		draw.Column{Title: "PROGRESS upd/avl/des", Width: barCells + 1 + max(w.figures, minNums)},
		// The state's glyph, a space, its word.
		draw.Column{Title: "STATE", Width: max(17, 2+w.state), Min: 8},
		draw.Column{Title: "AGE", Width: 4, Right: true, Drop: 6},
		draw.Column{Title: "CHANGE-CAUSE", Min: 12, Drop: 7},
	)
}

// stateCol is the STATE column's index without NAMESPACE and CLUSTER.
const stateCol = 5

// arrow separates the images rolled from and to.
const arrow = " → "

// cutImages fits "from → to" with both sides kept (each cut by
// draw.CutImages, which keeps the tag and last path element), or one list.
func cutImages(s string, w int) string {
	if draw.WidthOf(s) <= w {
		return s
	}
	from, to, rolling := strings.Cut(s, arrow)
	if !rolling {
		return draw.CutImages(s, w)
	}
	room := w - len([]rune(arrow))
	if room < 8 {
		return draw.CutImages(to, w)
	}
	if repo, tag, ok := sameRepository(from, to); ok {
		// One image changing tag: name it once, "…/ledger:1.9.0 → 2.0.0";
		// when the tags are too long for both, the image rolled to alone,
		// its tag whole: "…/checkout:3.0.0-broken".
		if room-len(tag) < minSide {
			return draw.CutImage(to, w)
		}
		return draw.CutImage(repo+":"+fromTag(from), room-len(tag)) + arrow + tag
	}
	// The image rolled to has the first claim on the room: cut, its tag
	// would be lost where it matters most.
	toW := min(draw.WidthOf(to), max(room-minSide, room/2))
	return draw.CutImages(from, room-toW) + arrow + draw.CutImages(to, toW)
}

// minSide is the least room the image rolled from is shown in.
const minSide = 6

// sameRepository reports whether from and to are one image each of the
// same repository, and to's tag.
func sameRepository(from, to string) (repo, tag string, ok bool) {
	if strings.Contains(from, ",") || strings.Contains(to, ",") {
		return "", "", false
	}
	fr, _, okF := splitTag(from)
	tr, tt, okT := splitTag(to)
	return tr, tt, okF && okT && fr == tr
}

// splitTag cuts an image reference at its tag's colon (after the last
// slash, so a registry's port is not a tag).
func splitTag(ref string) (repo, tag string, ok bool) {
	i := strings.LastIndex(ref, ":")
	if i < 0 || i < strings.LastIndex(ref, "/") || strings.Contains(ref, "@") {
		return ref, "", false
	}
	return ref[:i], ref[i+1:], true
}

func fromTag(ref string) string {
	_, tag, _ := splitTag(ref)
	return tag
}

// images are a row's images without their container names, "from → to"
// while it rolls from other ones.
func images(r cluster.FleetRow) string {
	now := imageList(r.Images)
	if len(r.From) == 0 {
		return now
	}
	return imageList(r.From) + arrow + now
}

func imageList(named []string) string {
	out := make([]string, len(named))
	for i, n := range named {
		if _, img, ok := strings.Cut(n, "="); ok {
			n = img
		}
		out[i] = n
	}
	return strings.Join(out, ",")
}

// minNums is the width progress gives its figures at least ("100/100/100"),
// so the bars line up down the column; wider figures widen the column, as a
// figure cut short would be false.
const minNums = 11

// figures are a row's updated/available/desired.
func figures(r cluster.FleetRow) string {
	return strconv.Itoa(int(r.Updated)) + "/" + strconv.Itoa(int(r.Available)) + "/" + strconv.Itoa(int(r.Desired))
}

// figuresWidth is len(figures(r)), counted without writing them: the fleet
// measures every row on every batch.
func figuresWidth(r cluster.FleetRow) int {
	digits := func(n int32) int {
		d := 1
		if n < 0 {
			d, n = 2, -n
		}
		for ; n >= 10; n /= 10 {
			d++
		}
		return d
	}
	return digits(r.Updated) + 1 + digits(r.Available) + 1 + digits(r.Desired)
}

// progress is the bar and its figures, right-aligned in numsW cells: █
// updated, ▒ available but not updated (old pods still serving), ░ neither,
// then updated/available/desired. A workload scaled to zero has a dotted bar.
func progress(r cluster.FleetRow, numsW int) string {
	nums := figures(r)
	var bar string
	if r.Desired <= 0 {
		bar = strings.Repeat("·", barCells)
	} else {
		cells := func(n int32) int { return int(int64(barCells) * int64(min(max(n, 0), r.Desired)) / int64(r.Desired)) }
		up := cells(r.Updated)
		avail := max(cells(r.Available)-up, 0)
		bar = strings.Repeat("█", up) + strings.Repeat("▒", avail) + strings.Repeat("░", barCells-up-avail)
	}
	return bar + " " + draw.FitRight(nums, max(numsW, minNums))
}

// View draws the scope line, the filter, the table and the selected row's
// why, in exactly the fleet's height.
func (v *Page) View() string {
	w, h := v.w, v.h
	if h <= 0 || w <= 0 {
		return ""
	}
	out := make([]string, 0, h)
	out = append(out, v.scopeLine(w))
	out = append(out, v.clusterLines(w)...)
	if v.note != "" {
		out = append(out, draw.Fit(v.paints.warn.On(draw.CutKeepingHint(v.note, w)), w))
	}
	if v.elsewhere.Any() {
		out = append(out, draw.Fit(v.paints.bad.On(draw.CutKeepingHint(" "+v.elsewhereLine(), w)), w))
	}
	if v.typing || v.filterText != "" {
		out = append(out, v.filterLine(w))
	}
	why := v.whyLines(w)
	v.list.Height = max(h-len(out)-1-len(why), 1)
	cols := v.cols
	out = append(out, v.list.Table(draw.Paints{Header: v.paints.header, Muted: v.paints.muted, Selected: v.paints.selected}, cols, w, len(v.rows), v.empty(),
		func(i int, widths []int, rw int, sel bool) string { return v.row(v.rows[i], cols, widths, rw, sel) })...)
	for len(out) < h-len(why) {
		out = append(out, strings.Repeat(" ", w))
	}
	out = append(out, why...)
	if len(out) > h {
		out = out[:h]
	}
	return strings.Join(out, "\n")
}

// scopeLine is what the fleet covers and how many workloads are in each
// state, most urgent first: "ns billing · 48 workloads · 2 failed · 41
// complete".
func (v *Page) scopeLine(w int) string {
	st := v.s.Styles
	scope := st.Label.Render("ns") + " " + st.Accent.Render(v.namespace)
	if v.namespace == "" {
		scope = st.Accent.Render("all namespaces")
	}
	parts := []string{scope, st.Text.Render(plural(len(v.all), "workload"))}
	short := append([]string(nil), parts...)
	for s, n := range v.count {
		if n > 0 {
			parts = append(parts, v.paints.state[s].On(strconv.Itoa(n)+" "+cluster.FleetState(s).String()))
			short = append(short, v.paints.state[s].On(strconv.Itoa(n)+stateGlyphs[s]))
		}
	}
	line := " " + strings.Join(parts, st.Muted.Render(" · "))
	if draw.WidthOf(line) > w && len(short) > 2 {
		// Narrow: the counts by their glyphs, "1✖ 2■ 41✔", rather than
		// the last states cut off.
		line = " " + strings.Join(short[:2], st.Muted.Render(" · ")) + st.Muted.Render(" · ") + strings.Join(short[2:], " ")
	}
	return draw.Fit(line, w)
}

// elsewhereLine says what is urgent in the namespaces not shown, and the
// key that shows them: "2 failing, 1 stuck in other namespaces — 0 shows
// all".
func (v *Page) elsewhereLine() string {
	var parts []string
	if n := v.elsewhere.Failing; n > 0 {
		parts = append(parts, strconv.Itoa(n)+" failing")
	}
	if n := v.elsewhere.Stuck; n > 0 {
		parts = append(parts, strconv.Itoa(n)+" stuck")
	}
	return strings.Join(parts, ", ") + " in other namespaces — " + v.s.Keys.AllNamespaces.Help().Key + " shows all"
}

// filterLine is the filter as typed and how many rows it keeps, or why it
// does not parse.
func (v *Page) filterLine(w int) string {
	st := v.s.Styles
	text := "/" + v.filterText
	if v.typing {
		text += "█"
	}
	line := " " + st.Accent.Render(text) + "  "
	if v.filterErr != "" {
		return draw.Fit(line+v.paints.bad.On(v.filterErr), w)
	}
	return draw.Fit(line+st.Muted.Render(strconv.Itoa(len(v.rows))+" of "+strconv.Itoa(len(v.all))), w)
}

// empty says why there are no rows.
func (v *Page) empty() string {
	switch {
	case !v.s.Watch.Synced:
		return " waiting for the cluster's workloads…"
	case len(v.all) > 0:
		return " no workload matches /" + v.filterText + " — esc clears the filter"
	case v.namespace == "":
		return " no workloads in any namespace"
	}
	if len(v.others) > 0 {
		return " no workloads in namespace " + v.namespace + " — :ns NAME shows another (" + strings.Join(v.others, ", ") + "), 0 all of them"
	}
	return " no workloads in namespace " + v.namespace + " — 0 shows all namespaces"
}

func (v *Page) row(r cluster.FleetRow, cols []draw.Column, widths []int, w int, sel bool) string {
	cause := r.ChangeCause
	if cause == "" {
		cause = "-"
	}
	state := int(r.State)
	glyph := "?"
	if state >= 0 && state < fleetStates {
		glyph = stateGlyphs[state]
	}
	kindEntry, _ := r.Kind.Entry()
	imgs, ctx := images(r), r.Cluster
	if r.Others > 0 {
		// One row for several clusters: the most urgent one named, and
		// what each runs in place of the images.
		imgs, ctx = r.Spread, ctx+" +"+strconv.Itoa(r.Others)
	}
	rev := "-" // an RC's: it has no revisions
	if r.Revision > 0 {
		rev = draw.Itoa(r.Revision)
	}
	cells := []string{kindEntry.Short, r.Name, rev, imgs, progress(r, v.numsW), glyph + " " + r.Word, draw.Age(v.s.Now, r.Since), cause}
	if v.manyNamespaces {
		cells = append([]string{r.Namespace}, cells...)
	}
	several := v.s.Several()
	if several {
		cells = append([]string{ctx}, cells...)
	}
	stale := v.stale[r.Cluster]
	look := strings.Join(cells, "\x00")
	if stale {
		look += "\x00stale"
	}
	return v.list.Render(rowKey(r), look, w, sel, func() string {
		if sel {
			return v.paints.selected.On(draw.Row(widths, cols, cells, w))
		}
		if stale {
			// Its cluster's last known picture: muted, its state too.
			return v.paints.muted.On(draw.Row(widths, cols, cells, w))
		}
		at := stateCol
		if v.manyNamespaces {
			at++
		}
		if several {
			at++
		}
		if state >= 0 && state < fleetStates && widths[at] > 0 {
			cells[at] = v.paints.state[state].On(draw.Fit(cells[at], widths[at]))
		}
		return draw.Row(widths, cols, cells, w)
	})
}

// whyLines are the selected row's why, whole, on at most two lines.
func (v *Page) whyLines(w int) []string {
	r, ok := v.Selected()
	if !ok {
		return nil
	}
	why := r.Why
	if why == "" {
		why = r.Word
	}
	text := r.Namespace + " " + r.Ref() + ": " + why
	if v.s.Several() {
		text = r.Cluster + " " + text
	}
	if r.Spread != "" {
		// A grouped row: each cluster's revision, images and state.
		text = r.Namespace + " " + r.Ref() + ": " + r.Spread + " — " + r.Cluster + ": " + why
	}
	lines := draw.WrapAtMost(text, w-1, 2)
	for i, l := range lines {
		lines[i] = draw.Fit(" "+v.s.Styles.Text.Render(l), w)
	}
	return lines
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// clusterCount is one cluster's part of the fleet: its rows, what is
// urgent among them, and why its picture is not current ("last known 12s
// ago: connection refused") or why it could not be reached.
type clusterCount struct {
	context, problem string
	rows             int
	urgent           cluster.Urgent
}

// clusterLines are, with several clusters, each one's count on one line —
// "eu-west 6 workloads, 1 failing │ us-east 5 workloads" — and a line for each cluster whose
// rows are only the last known, or which could not be reached, saying why.
func (v *Page) clusterLines(w int) []string {
	if !v.s.Several() {
		return nil
	}
	st := v.s.Styles
	parts := make([]string, 0, len(v.clusters))
	var problems []string
	for _, c := range v.clusters {
		part := st.Label.Render(c.context) + " " + st.Text.Render(plural(c.rows, "workload"))
		if n := c.urgent.Failing; n > 0 {
			part += ", " + v.paints.bad.On(strconv.Itoa(n)+" failing")
		}
		if n := c.urgent.Stuck; n > 0 {
			part += ", " + v.paints.bad.On(strconv.Itoa(n)+" stuck")
		}
		if c.problem != "" {
			part += " " + v.paints.warn.On("!")
			problems = append(problems, draw.Fit(v.paints.warn.On(draw.CutKeepingHint(" "+c.context+": "+c.problem, w)), w))
		}
		parts = append(parts, part)
	}
	return append([]string{draw.Fit(" "+strings.Join(parts, st.Muted.Render(" │ ")), w)}, problems...)
}
