package draw

import "rollscope/themes"

// Paints are the styles of the hot rendering paths, pre-split.
type Paints struct {
	Pod                          [themes.PodStates]Paint
	Muted, OK, Warn, Bad, Accent Paint
	Selected                     Paint
	RoleNew, RoleOld, RoleStable Paint
	Header                       Paint
}

// NewPaints splits the styles the hot paths use.
func NewPaints(s themes.Styles) Paints {
	p := Paints{
		Muted: NewPaint(s.Muted), OK: NewPaint(s.OK), Warn: NewPaint(s.Warn), Bad: NewPaint(s.Bad),
		Accent: NewPaint(s.Accent), Selected: NewPaint(s.Selected),
		RoleNew: NewPaint(s.RoleNew), RoleOld: NewPaint(s.RoleOld), RoleStable: NewPaint(s.RoleStable),
		Header: NewPaint(s.TableHeader),
	}
	for i := range p.Pod {
		p.Pod[i] = NewPaint(s.Pod[i])
	}
	return p
}
