//go:build !race

package perform_test

const underRace = false
