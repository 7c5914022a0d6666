import Relational

/// Generated change streams ("sessions") on the generated shapes: `ChangeSessions.generate`
/// turns a dataset, a session name, a transaction count, a session seed and the session's
/// parameters into change-script text. The same inputs give byte-identical text; every
/// transaction applies cleanly to the dataset as changed by the transactions before it
/// (each generator keeps a model of the tables and only names rows that exist).
public enum ChangeSessions {
    /// The largest stream one request may ask for.
    public static let transactionRange = 1...1_000_000

    /// The sessions of a shape, `mixed` last.
    public static func names(for shape: Shape) -> [String] {
        switch shape {
        case .documents: return DocumentsSession.sessions
        case .pets: return PetsSession.sessions
        case .todo: return TodoSession.sessions
        case .employees: return EmployeesSession.sessions
        }
    }

    /// The parameters (`key=value`) a session accepts.
    public static func parameterNames(shape: Shape, session: String) -> [String] {
        switch shape {
        case .documents: return DocumentsSession.parameterNames(session)
        case .pets: return PetsSession.parameterNames(session)
        case .todo: return TodoSession.parameterNames(session)
        case .employees: return EmployeesSession.parameterNames(session)
        }
    }

    /// Checks the session name, the count and every parameter without a dataset.
    public static func validate(shape: Shape, session: String, transactions: Int, parameters: ShapeParameters) throws {
        let known = names(for: shape)
        guard known.contains(session) else {
            let hint = closestMatch(to: session, among: known).map { "; did you mean '\($0)'?" } ?? ""
            throw WorkloadError.badParameter(
                name: "session", value: session, expected: "a session of shape \(shape)\(hint) (\(known.joined(separator: " | ")))")
        }
        guard transactionRange.contains(transactions) else {
            throw WorkloadError.outOfRange(
                name: "transactions", value: String(transactions),
                minimum: transactionRange.lowerBound, maximum: transactionRange.upperBound)
        }
        let allowed = parameterNames(shape: shape, session: session)
        for key in parameters.values.keys.sorted() where !allowed.contains(key) {
            throw WorkloadError.unknownParameter(
                key, shape: "\(shape) session \(session)", known: allowed, suggestion: closestMatch(to: key, among: allowed))
        }
        // Reading the parameters is their range check.
        var rowsAddedPerTransaction = 1
        switch shape {
        case .documents:
            let settings = try DocumentsSession.Settings(parameters)
            rowsAddedPerTransaction = settings.mayImport(session) ? settings.importSize : 1
        case .pets: _ = try PetsSession.Settings(parameters)
        case .todo: _ = try TodoSession.Settings(parameters)
        case .employees: _ = try EmployeesSession.Settings(parameters)
        }
        let (mostAdded, overflow) = transactions.multipliedReportingOverflow(by: rowsAddedPerTransaction)
        guard !overflow, mostAdded <= maximumRowsAdded else {
            throw WorkloadError.badParameter(
                name: "transactions", value: String(transactions),
                expected: "a session that adds at most \(maximumRowsAdded) rows (the script and its model are held in memory); "
                    + "\(transactions) transactions of import-size \(rowsAddedPerTransaction) may add "
                    + "\(overflow ? "more than \(Int.max)" : String(mostAdded)): lower --transactions or import-size")
        }
    }

    /// The most rows one session may add: the script is built in memory, about 150 bytes a
    /// row added with the model of the tables (1M rows: 176 MB peak, a 37 MB script), so
    /// this keeps a session under about 2 GB, where `transactions` times `import-size` could
    /// otherwise ask for ten billion rows.
    public static let maximumRowsAdded = 10_000_000

    /// The change script of `transactions` transactions of `session` on `dataset`.
    public static func generate(
        dataset: Dataset, session: String, transactions: Int, seed: UInt64, parameters: ShapeParameters = ShapeParameters()
    ) throws -> String {
        try generateReporting(dataset: dataset, session: session, transactions: transactions, seed: seed, parameters: parameters).text
    }

    /// The script, and the transactions made as another kind than drawn (also in its header).
    public static func generateReporting(
        dataset: Dataset, session: String, transactions: Int, seed: UInt64, parameters: ShapeParameters = ShapeParameters()
    ) throws -> (text: String, standIns: StandIns) {
        try validate(shape: dataset.shape, session: session, transactions: transactions, parameters: parameters)
        var writer = SessionScriptWriter(
            header: "session \(session) on \(dataset.shape) rows \(dataset.rowsRequested) seed \(dataset.seed)"
                + (dataset.parameters.values.isEmpty ? "" : " params \(dataset.parameters)")
                + ", session seed \(seed)" + (parameters.values.isEmpty ? "" : " session params \(parameters)")
                + ", \(transactions) transactions")
        var random = SplitMix64Generator(seed: seed)
        switch dataset.shape {
        case .documents:
            var model = try DocumentsSession(dataset: dataset, settings: try DocumentsSession.Settings(parameters))
            for t in 1...transactions { writer.add(model.next(session, number: t, random: &random), wanted: model.wanted, made: model.made) }
        case .pets:
            var model = try PetsSession(dataset: dataset, settings: try PetsSession.Settings(parameters))
            for t in 1...transactions { writer.add(model.next(session, number: t, random: &random), wanted: model.wanted, made: model.made) }
        case .todo:
            var model = try TodoSession(dataset: dataset, settings: try TodoSession.Settings(parameters))
            for t in 1...transactions { writer.add(model.next(session, number: t, random: &random), wanted: model.wanted, made: model.made) }
        case .employees:
            var model = try EmployeesSession(dataset: dataset, settings: try EmployeesSession.Settings(parameters))
            for t in 1...transactions { writer.add(model.next(session, number: t, random: &random), wanted: model.wanted, made: model.made) }
        }
        return (writer.text, writer.standIns)
    }
}
