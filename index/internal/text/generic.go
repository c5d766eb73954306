package text

// genericWords are analysed words that say little about which tool is
// meant: the verbs every tool name starts with and the politeness of
// requests. Queries weigh them less (rank.GenericWeight), and the WordNet
// expansion leaves them out ("get" is "find" and "take" and "have": too
// many senses).
var genericWords = map[string]bool{
	"show": true, "list": true, "get": true, "find": true, "give": true,
	"tell": true, "provide": true, "want": true, "need": true, "like": true,
	"help": true, "pleas": true, "use": true, "us": true, "can": true,
	"could": true, "would": true, "should": true, "might": true, "may": true,
	"let": true, "make": true, "sure": true, "also": true, "just": true,
	"specif": true, "particular": true, "certain": true, "tool": true,
	"inform": true, "detail": true, "data": true, "item": true, "thing": true,
	"way": true, "someth": true, "anyth": true, "current": true,
	"avail": true,
}

// IsGeneric reports whether the analysed word term is a generic word.
func IsGeneric(term string) bool { return genericWords[term] }
