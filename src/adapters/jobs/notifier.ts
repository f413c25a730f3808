/** The notifier port now lives in app/ (issue 18 §1); kept here for the adapters that import it. */
export * from '../../app/notifier.js';
