import Foundation

/// The Markdown report of a run: the machine, then one table per workload.
struct Report {
    private(set) var text = ""

    mutating func section(_ title: String, headers: [String], rows: [[String]], note: String = "") {
        text += "### \(title)\n\n"
        text += "| " + headers.joined(separator: " | ") + " |\n"
        text += "|" + headers.map { _ in " --- |" }.joined() + "\n"
        for row in rows {
            text += "| " + row.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
        }
        if !note.isEmpty { text += "\n" + note + "\n" }
        text += "\n"
        FileHandle.standardError.write(Data(("\n" + text.split(separator: "\n", omittingEmptySubsequences: false).suffix(rows.count + 6).joined(separator: "\n")).utf8))
    }

    mutating func paragraph(_ paragraph: String) {
        text += paragraph + "\n\n"
    }

    /// Puts `section` before everything written so far.
    mutating func prepend(_ section: String) {
        text = section + text
    }

    /// What the numbers were measured on.
    static func machine() -> String {
        func firstLine(_ command: [String]) -> String {
            (try? ChildRun.run(command, environment: ["PATH": "/usr/bin:/bin:/usr/sbin"], capture: true).output)?
                .split(separator: "\n").first.map(String.init) ?? "?"
        }
        let cpuModel = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "?"
        let memory = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8))?
            .split(separator: "\n").first?.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "?"
        let packages = ["slapd", "python3-ldap", "python3-ldap3"]
            .map { "\($0) " + firstLine(["/usr/bin/dpkg-query", "-W", "-f", "${Version}\\n", $0]) }
            .joined(separator: ", ")
        return """
            - CPU: \(cpuModel), \(ProcessInfo.processInfo.activeProcessorCount) cores; memory \((Int(memory) ?? 0) / 1024 / 1024) GiB
            - \(firstLine(["/usr/bin/uname", "-sr"])); \(packages)
            - ldapbook built with `scripts/build-release.sh` (`swift build -c release --static-swift-stdlib`, libstdc++ linked in, type metadata through direct accessors, relative relocations packed by lld); client and slapd on the same machine, over loopback TCP
            - slapd: MDB, the default indexes of SlapdKit (eq,sub on givenName, sn, cn and uid; eq on mail, telephoneNumber), fsync on every write (the default), no size limit
            """
    }
}
