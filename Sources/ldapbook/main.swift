import CMalloc
import CommandLineKit
import Foundation
import LDAPKit
#if canImport(Glibc)
import Glibc
#endif

// Two malloc arenas, not one per thread. Each thread's own arena grows by a page or two at a
// time, one mprotect call each (2,697 calls for a find that keeps 10,958 people, against 89 brk
// calls with one arena). One arena for all made the threads of a sync (reading, filing,
// writing) wait for its lock, a tenth of their time: `sync --rebuild` of 100,000 people took a
// median 3.88 s with one and 3.10 s with two (three runs each), and find took the same.
// Set before any thread starts.
mallopt(M_ARENA_MAX, 2)

// ldapbook binds with a password or SASL EXTERNAL, neither of which needs Cyrus SASL's
// plugins; not loading them saves about 5 ms of every command that connects.
LDAPConnection.skipSASLPlugins()

/// ldapbook's command line: parse, run one subcommand, map the outcome to an exit code.
/// Each subcommand lives in its own file under `Subcommands/`.
let parser = CommandLineParser(
    programName: "ldapbook",
    abstract: "An address book on your LDAP directory: find people and act on their details.",
    version: ldapbookVersion,
    globalOptions: ConnectionOptions.specs,
    commands: [Reach.spec, Find.spec, Show.spec, Add.spec, SetValues.spec, Edit.spec, Rename.spec, Delete.spec, Photo.spec, Query.spec, Sync.spec, Fields.spec, Import.spec, Export.spec, Schema.spec, Local.spec, History.spec, ServerConfig.spec,
               Documentation.completionSpec, Documentation.manpageSpec])

/// Runs the command line and returns the exit code.
func run() async -> ExitCode {
    do {
        let parsed = try parser.parse(try parser.processArguments())
        if let help = parsed.helpRequested {
            let width = CommandLineParser.helpWidth(columns: ProcessInfo.processInfo.environment["COLUMNS"])
            StandardStream.output.write(parser.help(for: help, width: width) + "\n")
            return .success
        }
        switch parsed.command?.name {
        case Reach.spec.name: return try await Reach.run(parsed)
        case Find.spec.name: return try await Find.run(parsed)
        case Show.spec.name: return try await Show.run(parsed)
        case Add.spec.name: return try await Add.run(parsed)
        case SetValues.spec.name: return try await SetValues.run(parsed)
        case Edit.spec.name: return try await Edit.run(parsed)
        case Rename.spec.name: return try await Rename.run(parsed)
        case Delete.spec.name: return try await Delete.run(parsed)
        case Photo.spec.name: return try await Photo.run(parsed)
        case Sync.spec.name: return try await Sync.run(parsed)
        case Query.spec.name: return try await Query.run(parsed)
        case Fields.spec.name: return try await Fields.run(parsed)
        case Import.spec.name: return try await Import.run(parsed)
        case Export.spec.name: return try await Export.run(parsed)
        case Schema.spec.name: return try await Schema.run(parsed)
        case Local.spec.name: return try await Local.run(parsed)
        case History.spec.name: return try await History.run(parsed)
        case ServerConfig.spec.name: return try ServerConfig.run(parsed)
        case Documentation.completionSpec.name: return try Documentation.runCompletion(parsed, parser: parser)
        case Documentation.manpageSpec.name: return Documentation.runManpage(parsed, parser: parser)
        default: return .usage
        }
    } catch let failed as CommandStatus {
        // The command reach ran failed: its status is the outcome, as a shell would report it.
        Diagnostics.say(failed.message)
        UntilExit.exit(failed.status)
    } catch {
        let (code, message) = ExitCode.forError(error)
        Diagnostics.say(error, message: message)
        return code
    }
}

UntilExit.exit(await run().rawValue)
