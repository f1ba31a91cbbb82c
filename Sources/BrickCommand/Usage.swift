import BrickRequest

/// The command's help text.
enum Usage {
    static let text = """
        brick \(Session.version): HTTP requests from the command line, through BrickRequest.

        usage: brick [METHOD] URL [ITEM...] [OPTION...]
               brick ws URL [HEADER | QUERY...] [OPTION...]   a WebSocket: each line of standard input
                          is sent as a text message, each message received is printed (ws:// when no
                          scheme is given); the end of input closes it

        METHOD     GET unless something is sent (then POST); any name in capitals is sent as is.
        URL        http:// is added when no scheme is given; :8080/path is http://localhost:8080/path.

        ITEM       name==value   a query parameter          X-Token:abc   a header
                   name=text     a body field (text)        age:=36       a body field (JSON)
                   bio=@FILE     a text field from a file   tags:=@FILE   a JSON field from a file
                   X-Token:@FILE a header from a file       photo@FILE    a file, uploaded
                   Body fields go in a JSON object, in their order (or a form with --form);
                   with a file uploaded, every field goes in a multipart/form-data body.
                   With none, a pipe or a file on standard input is the body.

        --auth USER:PASSWORD, -a   Basic authentication (-a USER asks for the password on a terminal);
                               with -A bearer, -a TOKEN sends a bearer token; -a @FILE reads them
                               from FILE's first line (not in ps or the shell's history)
        --auth-env NAME        the credentials -a would take, from the environment variable NAME
        --auth-type basic|bearer, -A
        --ignore-stdin         never read standard input as the body

        --json TEXT|@FILE      a JSON body, sent exactly as written (checked first)
        --form, -f             body fields as application/x-www-form-urlencoded
        --download FILE, -d    saves the body to FILE with a progress bar; after Ctrl-C or a cut,
                               the same command resumes where it stopped. `brick -d URL` names the
                               file after the URL's last path segment
        --follow, --no-follow  follow redirects (the default: at most 10) or show the redirect
        --max-redirects N      follow at most N redirects; -v shows each one's exchange
        --retry none|soft|hard the retry rules of SoftAutoRetryType or HardAutoRetryType
        --timeout SECONDS      the longest the whole request may take
        --cacert FILE          trust the certificates in FILE (PEM) instead of the system's
        --proxy URL|none       this proxy, or none, instead of the environment's (http_proxy, …)
        --unix-socket PATH     connect to a Unix domain socket; the URL's host names the server
        --session NAME         keep this call's headers and the server's cookies for the next calls
                               to the same host (~/.config/brick/sessions/HOST/NAME, owner-only)
        --print WHAT, -p       what goes to standard output: H the request's head, B its body,
                               h the response's head, b its body (default: hb on a terminal, b piped)
        --har FILE             write each attempt and redirect of the call to FILE (HAR 1.2, owner-only),
                               secrets redacted; --har-secrets keeps them
        --timing               the timing waterfall and the attempts, on standard error
        --verbose, -v          each attempt's request and response heads, secrets redacted, on
                               standard error
        --pretty, --raw        lay out JSON bodies or not (default: laid out on a terminal)
        --swift                print the Component subclass this command stands for, send nothing
        --completion bash|zsh|fish  print the shell's completion script
        --version, --help

        curl's spellings are taken where they mean the same: -H 'Name: value' (a header), -X METHOD
        (--request), -I (--head: a HEAD, its answer's head shown), -o FILE (--output: as --download),
        -L (--location: following is the default), -s (--silent: no progress bar, no summary line)

        On a terminal the response's head and body are shown, in colour unless NO_COLOR is set;
        piped, the body alone, as it came. What the command says goes to standard error: the
        status line of a 4xx or 5xx answer whose head is not shown, errors, progress. Exit status:
        0 for a 1xx-3xx answer or a finished download, 4 and 5 for 4xx and 5xx, 1 when no answer
        came, 2 for a command line that cannot run, 130 after Ctrl-C.

        """
}
