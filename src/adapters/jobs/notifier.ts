/** The notifier port now lives in app/; kept here for the adapters that import it. */
export * from '../../app/notifier.js';
