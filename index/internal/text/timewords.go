package text

import "strings"

// timeWords name days and times of day: when a request is to be done, an
// argument of a tool, not what the tool does.
var timeWords = map[string]bool{
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true, "saturday": true, "sunday": true,
	"today": true, "tomorrow": true, "tonight": true, "yesterday": true,
	"morning": true, "afternoon": true, "evening": true, "weekend": true,
}

// IsTimeWord reports whether word names a day or a time of day, in any
// case, possessive or plural ("Thursday's", "mornings").
func IsTimeWord(word string) bool {
	word = strings.ToLower(word)
	word = strings.TrimSuffix(strings.TrimSuffix(word, "'s"), "’s")
	return timeWords[word] || timeWords[strings.TrimSuffix(word, "s")]
}
