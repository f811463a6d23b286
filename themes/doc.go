// Package themes holds rollscope's colour themes. A Theme names colours by
// what they mean to an operator (ok, warn, bad, surge, unavailable, …) and
// builds the one Styles value every pane renders with, so no pane ever picks
// a raw colour and a theme change restyles the whole console at once.
package themes
