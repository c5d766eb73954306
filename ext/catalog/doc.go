// Package catalog is the catalog model and its validation: what `mcpsearch
// crawl` writes and index.Build reads. It imports no search engine, so the
// crawler checks what it writes by the rules the index loads by, without
// linking bleve.
//
// A catalog is a directory of JSON files, one per upstream server, each
// holding the server's name and its raw tools/list, prompts/list,
// resources/list and resources/templates/list answers, and optionally the
// texts of its resources, its upstream, its visibility and the
// serverInfo its initialize answered (of which the first sentence of its
// description is kept as the server's About, for the directory of
// servers):
//
//	{"server": "weather", "tools": [{"name": "get_forecast", "inputSchema": {...}}, ...],
//	 "prompts": [...], "resources": [...], "resourceTemplates": [...], "resourceContents": [...]}
//
// [LoadDir] and [LoadFS] read and validate every file; [CheckServerFile]
// validates one file alone. A server file must be a regular file (a
// symbolic link is followed and judged by what it names), read through a
// reader bounded at MaxFileBytes. The first problem found is returned as a
// [*LoadError] naming the file, the item and the field. The limits
// (MaxFileBytes, MaxItemBytes, …) bound what a catalog may cost to build
// and to serve. Items get canonical, collision-free names (server,
// separator, upstream name for tools and prompts; the URI for resources)
// and are sorted by kind, server and name. [Catalog.Version] hashes the
// canonical catalog.
package catalog
