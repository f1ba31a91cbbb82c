/// `brick --completion bash|zsh|fish`: a script that teaches the shell the command's options and the values
/// some of them take. Each script is written from ``options``, the one list of the options ``Usage`` explains.
enum Completion {
    enum Shell: String, Sendable { case bash, zsh, fish }

    /// What an option takes after it.
    enum Value: Sendable, Equatable {
        case nothing, text, file
        case oneOf([String])
    }

    struct Option: Sendable {
        let long: String
        let short: String?
        let value: Value
        /// Words only (no quotes, brackets or colons), so that every shell's syntax takes it as it is.
        let summary: String
    }

    static let options: [Option] = [
        Option(long: "--auth", short: "-a", value: .text, summary: "user and password or a bearer token"),
        Option(long: "--auth-type", short: "-A", value: .oneOf(["basic", "bearer"]), summary: "the kind of authentication"),
        Option(long: "--auth-env", short: nil, value: .text, summary: "the credentials from an environment variable"),
        Option(long: "--ignore-stdin", short: nil, value: .nothing, summary: "never read standard input as the body"),
        Option(long: "--json", short: "-j", value: .text, summary: "a JSON body as written or @FILE"),
        Option(long: "--form", short: "-f", value: .nothing, summary: "body fields as a form"),
        Option(long: "--download", short: "-d", value: .file, summary: "save the body to a file and resume it"),
        Option(long: "--output", short: "-o", value: .file, summary: "as --download (the spelling of curl)"),
        Option(long: "--header", short: "-H", value: .text, summary: "a header, as Name: value"),
        Option(long: "--request", short: "-X", value: .oneOf(methods), summary: "the method (as in curl)"),
        Option(long: "--head", short: "-I", value: .nothing, summary: "send a HEAD and show the head of the answer"),
        Option(long: "--silent", short: "-s", value: .nothing, summary: "no progress bar and no summary line"),
        Option(long: "--follow", short: nil, value: .nothing, summary: "follow redirects (the default)"),
        Option(long: "--location", short: "-L", value: .nothing, summary: "as --follow (the spelling of curl)"),
        Option(long: "--no-follow", short: nil, value: .nothing, summary: "show a redirect instead of following it"),
        Option(long: "--max-redirects", short: nil, value: .text, summary: "follow at most this many redirects (10)"),
        Option(long: "--retry", short: nil, value: .oneOf(["none", "soft", "hard"]), summary: "the retry rules"),
        Option(long: "--timeout", short: nil, value: .text, summary: "the longest the request may take in seconds"),
        Option(long: "--cacert", short: nil, value: .file, summary: "trust the certificates in this PEM file"),
        Option(long: "--proxy", short: nil, value: .text, summary: "this proxy URL or none"),
        Option(long: "--unix-socket", short: nil, value: .file, summary: "connect to this Unix domain socket"),
        Option(long: "--print", short: "-p", value: .text, summary: "what to show of H B h b"),
        Option(long: "--session", short: nil, value: .text, summary: "keep headers and cookies under this name"),
        Option(long: "--har", short: nil, value: .file, summary: "write the exchanges to a HAR file, secrets redacted"),
        Option(long: "--har-secrets", short: nil, value: .nothing, summary: "keep the secrets in the HAR file"),
        Option(long: "--timing", short: nil, value: .nothing, summary: "the timing waterfall and the attempts"),
        Option(long: "--verbose", short: "-v", value: .nothing, summary: "both heads of each attempt, secrets redacted"),
        Option(long: "--pretty", short: nil, value: .nothing, summary: "lay out JSON bodies"),
        Option(long: "--raw", short: nil, value: .nothing, summary: "bodies as they came"),
        Option(long: "--swift", short: nil, value: .nothing, summary: "print the Component subclass and send nothing"),
        Option(long: "--completion", short: nil, value: .oneOf(["bash", "zsh", "fish"]), summary: "print a shell completion script"),
        Option(long: "--version", short: nil, value: .nothing, summary: "the version of brick and libcurl"),
        Option(long: "--help", short: "-h", value: .nothing, summary: "how to use brick"),
    ]

    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    /// `source <(brick --completion bash)`, or the file in bash-completion's directory.
    static var bash: String {
        let words = options.flatMap { [$0.long] + ($0.short.map { [$0] } ?? []) }.joined(separator: " ")
        var cases = ""
        for option in options {
            let names = ([option.long] + (option.short.map { [$0] } ?? [])).joined(separator: "|")
            switch option.value {
            case .nothing: continue
            case .text: cases += "        \(names)) return ;;\n"
            case .file: cases += "        \(names)) COMPREPLY=($(compgen -f -- \"$current\")); return ;;\n"
            case .oneOf(let values): cases += "        \(names)) COMPREPLY=($(compgen -W \"\(values.joined(separator: " "))\" -- \"$current\")); return ;;\n"
            }
        }
        return """
            # brick's completion for bash: source <(brick --completion bash)
            _brick() {
                local current=${COMP_WORDS[COMP_CWORD]} previous=${COMP_WORDS[COMP_CWORD-1]}
                case $previous in
            \(cases)    esac
                if [[ $current == -* ]]; then
                    COMPREPLY=($(compgen -W "\(words)" -- "$current"))
                elif [[ $COMP_CWORD -eq 1 ]]; then
                    COMPREPLY=($(compgen -W "\(methods.joined(separator: " "))" -- "$current"))
                fi
            }
            complete -o default -F _brick brick

            """
    }

    /// A file named `_brick` in a directory of `$fpath`.
    static var zsh: String {
        var specs: [String] = []
        for option in options {
            let argument = switch option.value {
            case .nothing: ""
            case .text: ":value: "
            case .file: ":file:_files"
            case .oneOf(let values): ":value:(\(values.joined(separator: " ")))"
            }
            if let short = option.short {
                specs.append("'(\(short) \(option.long))'{\(short),\(option.long)}'[\(option.summary)]\(argument)'")
            } else {
                specs.append("'\(option.long)[\(option.summary)]\(argument)'")
            }
        }
        specs.append("'1:method or URL:(\(methods.joined(separator: " ")))'")
        specs.append("'*:item or URL: '")
        return "#compdef brick\n# brick's completion for zsh: save as _brick in a directory of $fpath\n_arguments -s \\\n  "
            + specs.joined(separator: " \\\n  ") + "\n"
    }

    /// `brick --completion fish > ~/.config/fish/completions/brick.fish`
    static var fish: String {
        var lines = ["# brick's completion for fish: brick --completion fish > ~/.config/fish/completions/brick.fish"]
        lines.append("complete -c brick -n __fish_is_first_arg -f -a '\(methods.joined(separator: " "))'")
        for option in options {
            var line = "complete -c brick -l \(option.long.dropFirst(2))"
            if let short = option.short { line += " -s \(short.dropFirst())" }
            switch option.value {
            case .nothing: line += " -f"
            case .text: line += " -x"
            case .file: line += " -r -F"
            case .oneOf(let values): line += " -x -a '\(values.joined(separator: " "))'"
            }
            lines.append(line + " -d '\(option.summary)'")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
